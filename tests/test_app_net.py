# The app with the club network (firmware/net.py) on CPython: the network's step runs only in
# passes that handled no key and drew nothing, never while a key is in contact; what it says
# goes to the status row once, in the screen's language, never as the error screen; its link
# is one character in the bottom row's last column; boards/main.py starts it only on a board
# with Wi-Fi and a /secrets.json (else firmware.net is never imported).
import runpy
import sys
import types
from typing import Any

from apprig import Rig, start

from firmware import lang, net, views
from firmware.store import Store
from host_tools.mpy import ROOT
from tests.helpers import scratch_dir


class FakeNet:
    # Net's face to the app: work(now, match), link, said; records each call and whether a
    # key was in contact then.
    def __init__(self, rig=None):
        self.rig = rig
        self.link = "offline"
        self.said: "str | None" = None
        self.calls = []

    def work(self, now, match):
        inp = self.rig.hw.input if self.rig else None
        self.calls.append((now, match, bool(inp and 1 in inp.raw)))


def _rig(kind="oled", lang_code="en", game="9ball"):
    n = FakeNet()
    rig = Rig(kind, "keypad", lang=lang_code, game=game, net=n)
    n.rig = rig
    return rig, n


def test_the_network_steps_only_in_idle_passes_and_never_while_a_key_is_down(monkeypatch):
    rig, n = _rig()
    drawn = []
    render = views.render
    monkeypatch.setattr(views, "render", lambda m, k, p=0: drawn.append(rig.now) or
                        render(m, k, p))
    start(rig)
    rig.keys("1 A B C")
    assert n.calls, "the network never got a pass"
    assert not [c for c in n.calls if c[2]]  # never while a key was in contact
    assert not set(drawn) & {c[0] for c in n.calls}  # never in a pass that drew
    assert n.calls[-1][1] is rig.ctl.match  # the match being played
    # a key held down: no network step until it is released and its screen is out
    k = len(n.calls)
    rig.set_key("B", True)
    rig.run(300)
    assert len(n.calls) == k
    rig.set_key("B", False)
    rig.run(100)
    assert len(n.calls) > k


def test_a_fault_is_said_once_on_the_status_row_and_the_link_is_marked():
    for code, text in (("en", "No broker reply"), ("tr", "Sunucu yanıtsız")):
        rig, n = _rig("lcd20", code)
        start(rig)
        rig.run(50)
        assert rig.screen()[-1][-1] == "x"  # offline, in the bottom row's last column
        n.link, n.said = "offline", "net_broker"
        rig.run(50)
        scr = rig.screen()
        assert any(text in row for row in scr), scr
        assert rig.runner.error is None and rig.runner.restarts == 0  # no error screen
        rig.keys("B")  # a key's answer takes the row; the same fault is not said again
        rig.run(500)
        assert not any(text in row for row in rig.screen())
        n.link, n.said = "ok", None
        rig.run(50)
        assert rig.screen()[-1][-1] == "="
        n.link = "connecting"
        rig.run(50)
        assert rig.screen()[-1][-1] == "-"
    # on the menu too (its status row: the bottom rows)
    rig, n = _rig("oled")
    start(rig)
    rig.keys("# #")
    assert rig.ctl.mode == "menu"
    n.said = "net_auth"
    rig.run(50)
    assert "Broker refused" in rig.screen()[-1] or "Broker refused" in rig.screen()[-2]


def test_every_network_message_has_its_text_in_both_languages():
    for code in lang.LANGS:
        for k in ("net_wifi", "net_pass", "net_broker", "net_auth"):
            assert lang.has("m_" + k, code), (code, k)


def test_a_screen_with_the_link_keeps_its_hints_whole_beside_the_mark():
    # The hints and messages are packed one column narrower: none is cut by the mark.
    from tests.matchkeys import match_keys

    keys, _ = match_keys("9ball", {"race1": 2, "race2": 2})
    from firmware.ui import Controller

    c = Controller("keypad", "en", "9ball")
    for k in keys:
        c.key("press", k)
        m = c.model()
        m["link"] = "ok"
        lines: Any = views.render(m, "oled")[0]
        assert lines[-1][-1] == "=" and len(lines[-1]) == 16
        for row in views._hint_lines(m, 16):
            assert len(row) <= 15, row


class _Broken:
    # An MQTT client whose broker answers nonsense: every call raises what umqtt could.
    def __init__(self, exc):
        self.exc = exc
        self.sock = types.SimpleNamespace(close=lambda: None, settimeout=lambda t: None,
                                          setsockopt=lambda *a: None)

    def set_last_will(self, *a):
        pass

    def connect(self, *a):
        return None

    def set_callback(self, cb):
        pass

    def publish(self, *a):
        raise self.exc

    subscribe = publish


def test_what_the_network_raises_never_reaches_the_error_screen():
    for exc in (OSError(104), IndexError("umqtt"), AssertionError(), ValueError("x")):
        st = Store(scratch_dir("netapp"))
        nt = net.Net({"broker": "x", "club": "c"}, st, client=lambda e=exc: _Broken(e))
        rig = Rig("oled", "keypad", game="9ball", store=st, net=nt)
        start(rig)
        rig.keys("1 A")
        rig.run(3000)
        assert rig.runner.error is None and rig.runner.restarts == 0
        assert nt.retries > 0 and type(nt.error) is type(exc)
        assert nt.link == "connecting"
        st_ = rig.state()
        assert st_["shooter"] is not None  # the match went on
        rig.ctl.match.log.close()


def _main(tmp_path, monkeypatch, secrets):
    import firmware.app

    calls = []
    monkeypatch.setattr(firmware.app, "run", lambda hw, *a, **kw: calls.append(kw))
    board: Any = types.ModuleType("board")
    board.BOARD = "pico_w"
    board.OPTIONS = {"wdt_ms": 0}
    monkeypatch.setitem(sys.modules, "board", board)
    import time

    monkeypatch.setattr(time, "ticks_ms", lambda: 0, raising=False)
    monkeypatch.setattr(time, "sleep_ms", lambda ms: None, raising=False)
    monkeypatch.chdir(tmp_path)
    if secrets:
        (tmp_path / "secrets.json").write_text(secrets)
    monkeypatch.delitem(sys.modules, "firmware.net", raising=False)
    runpy.run_path(str(ROOT / "boards" / "main.py"))
    (kw,) = calls
    return kw


def test_main_starts_the_network_only_with_wifi_and_secrets(tmp_path, monkeypatch):
    from tests.test_boards import _Machine

    fake = _Machine()
    monkeypatch.setitem(sys.modules, "machine", fake.module)
    kw = _main(tmp_path, monkeypatch, None)
    assert kw["net"] is None and "firmware.net" not in sys.modules  # never imported
    kw = _main(tmp_path, monkeypatch, '{"broker": "10.0.0.2", "club": "c", "table": 3}')
    n = kw["net"]
    assert type(n).__name__ == "Net" and n.base == "pool/c/table/3/"
    assert n.store is kw["store"]
    kw = _main(tmp_path, monkeypatch, "not json")  # a bad file: no network, the board plays
    assert kw["net"] is None
