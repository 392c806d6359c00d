# Screen models for the view tests (CPython and MicroPython): a real Match, the model dict by hand.
from tests.builders import lag, new, play, pot141, shot

HINTS = [["A", "made"], ["B", "miss"], ["C", "foul"], ["D", "undo"]]


def model(m, lang="en", mode=None, hints=None, **kw):
    """The screen model of docs/ui-contract.md for Match m (as the Controller would build it)."""
    st = m.state()
    if mode is None:
        mode = "over" if st["winner"] is not None else ("choice" if st["pending"] else "play")
    d = {"mode": mode, "lang": lang, "match": m, "state": st, "entry": [], "shift": False,
         "msg": None, "hints": HINTS if hints is None else hints, "items": [], "cursor": 0,
         "fault": None}
    d.update(kw)
    return d


BREAK_141 = {"t": "shot", "first": 1, "break_rails": 2, "cue_rail": True, "rail": True}
DRY_BREAK = {"t": "shot", "first": 1, "break_rails": 4, "rail": True}
FOUL = {"t": "shot", "first": None}


def m141_two_fouls(players=("Şükrü", "İlkay")):
    """14.1: A breaks (legal, nothing down), B runs 3 and misses, A fouls, B misses, A fouls
    again: A (Şükrü, -2) is warned, B (İlkay, 3) to shoot."""
    return play(new("14.1", players), lag(0), BREAK_141, pot141(3), shot(first=1, rail=True),
                FOUL, shot(first=1, rail=True), FOUL)


def m141_run():
    """14.1 in play: A breaks, B runs 5, A 2, B 4 and is at the table: Ann 2, Bob 9 (run 4,
    high run 5, 2 innings each, averages 1.00 and 4.50)."""
    return play(new("14.1", ("Ann", "Bob"), target=[100, 75]), lag(0), BREAK_141, pot141(5),
                shot(first=1, rail=True), pot141(2), shot(first=1, rail=True), pot141(4))


def m8_choice(players=("Ayşe", "Gökhan")):
    """8-ball: the 8 and the cue ball down on the break: Gökhan chooses spot8 or rerack (E4s)."""
    return play(new("8ball", players), lag(0), shot(first=1, pots=[0, 8], break_rails=4, rail=True))


def m9_push():
    """9-ball: a legal break with two balls down; A may push out."""
    return play(new("9ball", ("Ann", "Bob")), lag(0), shot(first=1, pots=[2, 5], break_rails=4, rail=True))


def m9_over():
    """9-ball race to 1: the 9 on the break wins the match (C-N1)."""
    return play(new("9ball", ("Ann", "Bob"), race=[1, 1]), lag(0), shot(first=1, pots=[9], break_rails=4, rail=True))
