# The wall view: what a wall panel (drivers.neopanel, drivers.matrix) shows for a screen model.
# wall(model) -> [game, a, b, shooter, goal a, goal b, warned, bih, winner], all ints:
#   game 0 no match yet (setup: the panel shows dashes), 1 points (14.1), 2 racks (8/9-ball);
#   a, b the scores (14.1 points) or racks won; shooter 0/1, -1 none; goal a/b the target
#   (14.1) or race of each player, 0 unknown; warned: bit 0 player A, bit 1 player B on two
#   fouls with the three-foul rule on; bih 1 kitchen, 2 table, 0 none (not shown on a break);
#   winner 0/1, -1 while the match goes on; then, only while a shot has a countdown (O7), the
#   shot clock's seconds left. Pure: one small list a frame.


def wall(model):
    st = model.get("state")
    if st is None or model.get("mode") == "setup":
        return [0, 0, 0, -1, 0, 0, 0, 0, -1]
    m = model["match"]
    p = st["players"]
    points = st["game"] == "14.1"
    k = "score" if points else "racks"
    goal = m.get("target" if points else "race")
    win = st["winner"]
    warn = 0
    for i in (0, 1):
        if m.warned(i):
            warn |= 1 << i
    bih = st["bih"]
    sh = st["shooter"]
    v = [1 if points else 2, p[0][k], p[1][k], -1 if sh is None else sh, goal[0], goal[1],
         warn, 0 if not bih or st["breaking"] else (1 if bih == "kitchen" else 2),
         -1 if win is None else win]
    ck = model.get("clock")
    if ck and ck[0] is not None:
        v.append(ck[0])
    return v
