# The board's fixed screens while the app is not running, on every display kind: at the REPL
# (the app stopped by a Ctrl-C: mpremote, a terminal; firmware.app.run) and held by an
# unfinished deploy (boards/main.py). A module of its own, loaded only then: nothing of it is in
# the heap during a match, and a board whose deploy was cut short needs only it, firmware.hw
# and the display's driver to say so.
# Per language: four rows of up to 16 characters (a 16x2 LCD shows the first and the third),
# then the LED digits' eight.
_TEXTS = {
    "repl": {"en": ("At the USB REPL", "Match is kept", "Ctrl-D: back", "or a reset", "USb rEPL"),
             "tr": ("USB REPL'de", "Maç saklı", "Ctrl-D: dönüş", "ya da reset", "USb rEPL")},
    "held": {"en": ("Deploy not done", "Board is held", "Run make deploy", "to finish it",
                    "dEP.HoLd"),
             "tr": ("Yükleme yarım", "Kart bekliyor", "make deploy ile", "tamamlayın",
                    "dEP.HoLd")},
}


def screen(kind, what, lang="en"):
    # What display kind `kind` shows for notice `what` ("repl", "held") in lang.
    t = _TEXTS[what]
    t = t.get(lang) or t["en"]
    if kind == "oled":
        return ([t[0], "", t[1], "", t[2], t[3], "", ""], (), (0,))
    if kind == "digits":
        return t[4]
    if kind == "lcd16":
        return [t[0], t[2]]
    return list(t[:4])  # lcd20; a wall panel draws its dashes for anything but a score


def show(hw, what, lang="en"):
    # The notice on the board's display, and dashes on its wall panel (no score left standing
    # there that no longer counts).
    d = hw.display
    inv = getattr(d, "invalidate", None)
    if inv is not None:
        inv()
    r = screen(hw.view, what, lang)
    if isinstance(r, tuple):
        d.show(*r)
    else:
        d.show(r)
    if hw.wall is not None:
        hw.wall.show(None)
