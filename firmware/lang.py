# Screen texts in English and Turkish: t(lang, key) looks a key up in firmware/lang_<lang>.py.
# Each of those holds one constant string T, "\nkey\ttext" per entry, so no dict, tuple or
# per-text object is built (a tuple of the texts took 16 KB of heap). Only the language on screen
# is loaded: a switch drops the other one's module (each is about 2.5 KB of heap as .mpy).
# "{}" marks an argument (str.format).
# Keys: action keys of docs/ui-contract.md as they are; "m_" + message key; "r_" + key of a
# firmware.rules refusal; "end_" + rack-ending rule; "rack_" + rack instruction rule; "f_" setup
# fields; "g_" game names; "v_" setting values; "mode_" screen titles. Keep them short: a 16x2
# LCD line holds 16 characters; longer texts are wrapped by the views.
import sys

LANGS = ("en", "tr")
_cur = ["", ""]  # [language, its T]


def _text(lang):
    if lang not in LANGS:
        lang = "en"
    if _cur[0] != lang:
        _cur[0] = _cur[1] = ""  # let the other language's text go first
        _cur[1] = __import__("firmware.lang_" + lang, None, None, ("T",)).T
        _cur[0] = lang
        _forget("lang_" + lang)
    return _cur[1]


def _forget(name):
    # Drop a module of the firmware package once its data is taken, so its code can be collected.
    sys.modules.pop("firmware." + name, None)
    pkg = sys.modules.get("firmware")
    if pkg is not None and name in pkg.__dict__:
        delattr(pkg, name)


def t(lang, key):
    """The text of key in lang ("en" or "tr"); the key itself if there is none."""
    text = _text(lang)
    i = text.find("\n" + key + "\t")
    if i < 0:
        return key
    i += len(key) + 2
    return text[i:text.find("\n", i)]


def has(key, lang="en"):
    return ("\n" + key + "\t") in _text(lang)


def keys(lang="en"):
    """All keys (for tests)."""
    text = _text(lang)
    out = []
    i = text.find("\n")
    while 0 <= i < len(text) - 1:
        j = text.find("\t", i)
        out.append(text[i + 1:j])
        i = text.find("\n", j)
    return out
