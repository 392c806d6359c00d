# Screen texts in English and Turkish: t(lang, key) looks a key up in firmware/lang_<lang>.py.
# Each of those holds one constant T (bytes for English, a str for Turkish), "\nkey\ttext" per
# entry, so no dict, tuple or per-text object is built (a tuple of the texts would take 16 KB of
# heap). Only the language on screen is loaded: a switch lets the other one go (each text is
# about 4 KB of heap).
# "{}" marks an argument (str.format).
# Keys: action keys of docs/ui-contract.md as they are; "m_" + message key; "r_" + key of a
# firmware.rules refusal; "end_" + rack-ending rule; "rack_" + rack instruction rule; "f_" setup
# fields; "g_" game names; "v_" setting values; "mode_" screen titles. Keep them short: a 16x2
# LCD line holds 16 characters; longer texts are wrapped by the views.
import gc

from firmware.mem import const, unload

LANGS = ("en", "tr")
_cur = ["", ""]  # [language, its T]
# The texts looked up lately, by key (the language on screen's). Finding a key in T walks up to
# 3 KB, and with letters beyond ASCII in T every index is a walk from its start: about 30 us a
# text on the board-like VM on a PC, 13 texts a screen. A screen looks up much the same texts as
# the one before, and a hit makes no new string: a render takes a quarter of the time, for about
# 3 KB of heap.
_memo = {}
_MEMO = const(40)  # at most this many; then it starts again


def texts(lang):
    """All texts of lang in one piece (the app loads them while the heap is whole)."""
    if lang not in LANGS:
        lang = "en"
    if _cur[0] != lang:
        _memo.clear()
        _cur[0] = _cur[1] = ""  # the other language's text is garbage before the new one loads
        gc.collect()  # now: the import's own allocations would take the holes the new text's
        # 4 KB in one piece needs (the board-like VM then runs out even at 80 KB)
        _cur[1] = __import__("firmware.lang_" + lang, None, None, ("T",)).T
        _cur[0] = lang
        unload("lang_" + lang)  # the text is kept: a switch then lets it go with _cur
    return _cur[1]


def _at(text, key):
    # Where key's text starts (just past "\n" key "\t"), or -1; text is a str (Turkish) or
    # bytes (English: UTF-8, found and sliced by offsets), and the entry's start made the same:
    # one search through the text, where looking for the key alone stopped at every word it is
    # part of (on the virtual Pico a text not remembered took up to 1.2 ms). Only a text not
    # remembered is looked up, so the pattern is little garbage.
    p = b"\n%s\t" % key.encode() if isinstance(text, bytes) else "\n%s\t" % key
    i = text.find(p)
    return i if i < 0 else i + len(p)


def _line(text, i):
    # The text from offset i to the end of its line, as a str.
    if isinstance(text, bytes):
        return text[i:text.find(b"\n", i)].decode()
    return text[i:text.find("\n", i)]


def t(lang, key):
    """The text of key in lang ("en" or "tr"); the key itself if there is none."""
    text = _cur[1] if lang and lang == _cur[0] else texts(lang)  # (on screen: no call)
    v = _memo.get(key)
    if v is None:
        i = _at(text, key)
        v = key if i < 0 else _line(text, i)
        if len(_memo) >= _MEMO:
            _memo.clear()
        _memo[key] = v
    return v


def has(key, lang="en"):
    return _at(texts(lang), key) >= 0


def keys(lang="en"):
    """All keys (for tests)."""
    text = texts(lang)
    if isinstance(text, bytes):
        text = text.decode()
    out = []
    i = text.find("\n")
    while 0 <= i < len(text) - 1:
        j = text.find("\t", i)
        out.append(text[i + 1:j])
        i = text.find("\n", j)
    return out
