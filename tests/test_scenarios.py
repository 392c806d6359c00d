# mp: yes
# Replays every tests/scenarios/NAME.jsonl and compares the state contract with NAME.state.json.
import json
import os

from firmware import rules
from firmware.match import Match

_EVENTS_PER_STEP = 3  # under MicroPython, garbage is collected between steps


def _dir():
    # CPython: an absolute __file__; MicroPython under host_tools.mpy (cwd "/"): "tests/..."
    # or "/tests/..." depending on sys.path; both name the same directory for the guest.
    f = globals().get("__file__") or "tests/test_scenarios.py"
    here = f.rsplit("/", 1)[0] if "/" in f else "."
    return here + "/scenarios"


def _load(path):
    with open(path) as f:
        return json.loads(f.read())


def replay_steps(path, out):
    """Replay path, yielding every few events (MicroPython collects garbage between steps);
    at the end out holds [the Match after every line, the [line, rule] list of refusals]."""
    m = Match()
    refusals = []
    with open(path) as f:
        lines = f.read().split("\n")
    no = 0
    for line in lines:
        no += 1
        if not line.strip():
            continue
        try:
            m.apply(json.loads(line))
        except rules.Refused as e:
            refusals.append([no, e.rule])
        if no % _EVENTS_PER_STEP == 0:
            yield
    out[:] = [m, refusals]


def replay(path):
    """The Match after every line of path, and the [line, rule] list of refused events."""
    out = []
    for _ in replay_steps(path, out):
        pass
    return out[0], out[1]


def _diff(want, got, where, out):
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(want):
            if k not in got:
                out.append(where + k + ": missing")
            else:
                _diff(want[k], got[k], where + k + ".", out)
        return
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i in range(len(want)):
            _diff(want[i], got[i], where + str(i) + ".", out)
        return
    if where.endswith("options.") and isinstance(want, list) and isinstance(got, list):
        want, got = sorted(want), sorted(got)  # docs/contracts.md: options order carries no meaning
    if want != got or type(want) is not type(got):
        out.append("%s want %r got %r" % (where[:-1], want, got))


def check_steps(name, problems, d=None):
    """Append the problems with scenario name to problems (differing state fields and
    unexpected refusals), yielding between steps of the replay."""
    d = d or _dir()
    out = []
    for _ in replay_steps(d + "/" + name + ".jsonl", out):
        yield
    m, refusals = out
    yield
    _diff(_load(d + "/" + name + ".state.json"), m.state(), "", problems)
    want_ref = []
    if name + ".refusals.json" in os.listdir(d):
        want_ref = _load(d + "/" + name + ".refusals.json")
    if refusals != want_ref:
        problems.append("refusals want %r got %r" % (want_ref, refusals))


def check(name, d=None):
    """Problems with scenario name: differing state fields and unexpected refusals."""
    problems = []
    for _ in check_steps(name, problems, d):
        pass
    return problems


def names(d=None):
    d = d or _dir()
    return sorted(n[:-6] for n in os.listdir(d) if n.endswith(".jsonl"))


def test_scenarios_are_present():
    ns = names()
    for game in ("eight-ball", "nine-ball", "straight-pool", "ten-ball"):
        assert len([n for n in ns if n.startswith(game)]) >= 3, ns
    for n in ns:
        assert n + ".state.json" in os.listdir(_dir()), n


def steps_every_scenario_matches_its_state():
    bad = []
    for n in names():
        problems = []
        try:
            for _ in check_steps(n, problems):
                yield
        except Exception as e:  # a crash in the core is reported with the scenario's name
            problems = ["replay raised %r" % (e,)]
        if problems:
            bad.append(n + ": " + "; ".join(problems))
        yield
    assert not bad, "\n".join(bad)


def test_every_scenario_matches_its_state():
    for _ in steps_every_scenario_matches_its_state():
        pass
