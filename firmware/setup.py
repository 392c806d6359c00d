# The new-match screen (docs/ui-contract.md, mode "setup"): its fields, with the O1-O4
# settings, what a key does to each, and the new event they make. firmware.ui loads this module
# while the screen is up and lets it go once the match starts.
NAMES = ("Ali", "Ayşe", "Burak", "Can", "Deniz", "Elif", "Emre", "Furkan", "Gül", "Hakan",
         "Mehmet", "Zeynep", "P1", "P2")
TARGETS = (10, 15, 20, 25, 40, 50, 60, 75, 100, 125, 150, 200)  # 10-20: short matches, practice
GAMES = ("14.1", "8ball", "9ball")
BREAKS = ("alternate", "winner", "loser")


def default_break(game):
    return "winner" if game == "9ball" else "alternate"


def items(c, lang):
    """The screen's rows, [field, "set", value], for the settings c (Controller.cfg)."""
    g = c["game"]
    it = [["game", "set", g], ["player1", "set", c["p1"]], ["player2", "set", c["p2"]]]
    if g == "14.1":
        it += [["target1", "set", c["t1"]], ["target2", "set", c["t2"]]]
    else:
        it += [["race1", "set", c["r1"]], ["race2", "set", c["r2"]],
               ["break", "set", c["break"] or default_break(g)]]
    it.append(["three_foul", "set", c["three"]])
    if g == "9ball":
        it.append(["nine_on_break", "set", c["nine"]])
    it += [["lang", "set", lang], ["start", "start", None]]
    return it


def change(c, key, d):
    """Step the setting of field key by d (+1 or -1)."""
    if key == "game":
        c["game"] = _step(GAMES, c["game"], d)
        c["break"] = None
    elif key in ("player1", "player2"):
        f, o = ("p1", "p2") if key == "player1" else ("p2", "p1")
        c[f] = _step(NAMES, c[f], d)
        if c[f] == c[o]:            # two players never share a name
            c[f] = _step(NAMES, c[f], d)
    elif key in ("target1", "target2"):
        f = "t" + key[-1]
        c[f] = _step(TARGETS, c[f], d)
    elif key in ("race1", "race2"):
        f = "r" + key[-1]
        c[f] = (c[f] - 1 + d) % 15 + 1
    elif key == "break":
        c["break"] = _step(BREAKS, c["break"] or default_break(c["game"]), d)
    elif key == "three_foul":
        c["three"] = not c["three"]
    elif key == "nine_on_break":
        c["nine"] = "spot" if c["nine"] == "win" else "win"


def new_event(c):
    """The new event (O1-O4) of the settings c."""
    ev = {"t": "new", "game": c["game"], "players": [c["p1"], c["p2"]], "three_foul": c["three"]}
    if c["game"] == "14.1":
        ev["target"] = [c["t1"], c["t2"]]
    else:
        ev["race"] = [c["r1"], c["r2"]]
        ev["break"] = c["break"] or default_break(c["game"])
        if c["game"] == "9ball":
            ev["nine_on_break"] = c["nine"]
    return ev


def _step(values, cur, d):
    i = values.index(cur) if cur in values else 0
    return values[(i + d) % len(values)]
