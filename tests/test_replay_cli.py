# CPython only: `python -m host_tools.replay FILE.jsonl` as a subprocess (docs/contracts.md state contract).
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "tests", "examples")


def _run(path):
    return subprocess.run(
        [sys.executable, "-m", "host_tools.replay", path],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _run_lines(lines):
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        return _run(path)
    finally:
        os.unlink(path)


NEW9 = '{"t": "new", "game": "9ball", "players": ["A", "B"], "race": [2, 2]}'
LAG0 = '{"t": "lag", "breaker": 0}'
DRY = '{"t": "shot", "first": 1, "break_rails": 4, "rail": true}'


def test_prints_the_state_json():
    r = _run_lines([NEW9, LAG0, DRY, '{"t": "shot", "first": 1, "pots": [1, 0], "rail": true}'])
    assert r.returncode == 0, r.stderr
    st = json.loads(r.stdout)
    assert st["game"] == "9ball" and st["rack"] == 1
    assert st["shooter"] == 0 and st["bih"] == "table"  # N8 after B's scratch
    assert st["on_table"] == [2, 3, 4, 5, 6, 7, 8, 9]  # N9: the 1 stays down
    assert st["players"][1]["fouls"] == 1 and st["players"][1]["innings"] == 1
    assert st["pending"] is None and st["winner"] is None


def test_prints_a_10ball_state():
    # T4: the 10 on the break spotted, the breaker on; T7: the 3 not as called, B chooses.
    r = _run_lines(['{"t": "new", "game": "10ball", "players": ["A", "B"]}', LAG0,
                    '{"t": "shot", "first": 1, "pots": [10, 2], "break_rails": 4, "rail": true}',
                    '{"t": "shot", "first": 1, "call": 1, "pots": [3], "rail": true}',
                    '{"t": "shot", "first": 1, "rail": true}'])
    assert "line 5" in r.stderr and "T7" in r.stderr   # a shot while B must choose
    assert r.returncode == 0, r.stderr
    st = json.loads(r.stdout)
    assert st["game"] == "10ball" and st["on_table"] == [1, 4, 5, 6, 7, 8, 9, 10]
    assert st["balls_left"] == 8 and st["shooter"] == 1 and st["bih"] is None
    assert st["pending"] == {"by": 1, "options": ["shoot", "pass"]}
    assert st["players"][0]["innings"] == 1 and st["players"][0]["run"] == 0
    assert st["players"][0]["high_run"] == 1 and st["winner"] is None


def test_scenario_ten_ball_prints_its_state():
    path = os.path.join(ROOT, "tests", "scenarios", "ten-ball-push-pass")
    r = _run(path + ".jsonl")
    assert r.returncode == 0, r.stderr
    with open(path + ".state.json", encoding="utf-8") as f:
        assert json.loads(r.stdout) == json.load(f)


def test_refusal_goes_to_stderr_with_line_and_rule_and_replay_goes_on():
    r = _run_lines(
        [
            NEW9,
            LAG0,
            DRY,
            "",
            '{"t": "choose", "option": "pass"}',
            '{"t": "shot", "first": 1, "pots": [1], "rail": true}',
        ]
    )
    assert r.returncode == 0, r.stderr
    assert "line 5" in r.stderr and "N7" in r.stderr
    st = json.loads(r.stdout)
    assert 1 not in st["on_table"] and st["shooter"] == 1  # line 6 was applied


def test_malformed_line_exits_2_with_its_line_number():
    r = _run_lines([NEW9, LAG0, '{"t": "shot", "first": "one"}', DRY])
    assert r.returncode == 2
    assert "line 3" in r.stderr


def test_non_json_line_exits_2():
    r = _run_lines([NEW9, "{not json", LAG0])
    assert r.returncode == 2
    assert "line 2" in r.stderr


def _example(name):
    r = _run(os.path.join(EXAMPLES, name + ".jsonl"))
    assert r.returncode == 0, r.stderr
    with open(os.path.join(EXAMPLES, name + ".state.json"), encoding="utf-8") as f:
        want = json.load(f)
    assert json.loads(r.stdout) == want


def test_example_straight_pool_opening():
    _example("straight-pool-opening")


def test_example_nine_ball_push_out():
    _example("nine-ball-push-out")


def test_example_eight_ball_groups():
    _example("eight-ball-groups")


def test_refusal_texts_load_only_when_printed():
    # The board never prints a refusal (screens use firmware.lang), so the core leaves its
    # English texts on flash; str() of a refusal loads them.
    code = ("import sys\nfrom firmware import rules\nassert 'firmware.refusals' not in sys.modules\n"
            "e = rules.Refused('S1', 'too_many', 3, 2)\n"
            "assert str(e) == 'S1: 3 balls pocketed or off but only 2 on the table', str(e)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _closed_pipe(*args):
    # A tool's run with its stdout a pipe closed before it writes (`| head` ending first).
    p = subprocess.Popen([sys.executable, "-m", *args], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()
    err = p.stderr.read().decode()
    p.stderr.close()
    return p.wait(timeout=60), err


def test_a_reader_that_stops_early_gets_no_broken_pipe_traceback():
    scen = os.path.join(ROOT, "tests", "scenarios", "eight-ball-groups.jsonl")
    for args in (("host_tools.replay", scen), ("host_tools.screens", "--keys", "oled-14-1-play-en"),
                 ("host_tools.scoresheet", "--help")):
        code, err = _closed_pipe(*args)
        assert "BrokenPipeError" not in err and "Traceback" not in err, (args, err)
        assert code == 0, (args, err)
