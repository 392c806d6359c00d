# The archive and the Start of a new match (firmware/store.py, the Start path of firmware/ui.py)
# on real littlefs on an emulated NOR flash (host_tools/norflash.py): pruning never takes the
# match just archived nor fewer than the newest three, a flash short of room asks first, a file
# where hist/ goes is moved aside, a power cut at any flash operation of Start keeps the match
# played and its settings, and the pruning runs a step a pass while keys are taken.
import pytest

from firmware import store, views
from firmware.app import new_controller
from firmware.journal import Journal
from firmware.match import Match
from firmware.store import Store
from host_tools import norflash
from host_tools.norflash import installed
from tests.helpers import long_141

BLOCKS = 128  # a 512 KB filesystem: a Pico's geometry, fewer blocks to copy for each cut
PLAYED = 68  # events of the match played before Start


def _keys(ctl, text):
    for k in text.split():
        ctl.key("press", k)


def _board():
    return new_controller("keypad", "en", "14.1", store=Store(""))


def _fill(shim, fs, free_pct):
    # A file that leaves about free_pct of the blocks free.
    want = BLOCKS * free_pct // 100
    free = BLOCKS - fs.used_block_count
    if free > want:
        with shim.open("fill", "wb") as f:
            f.write(b"\x55" * ((free - want) * norflash.BLOCK - 600))
    return BLOCKS - fs.used_block_count


def _image(archived, free_pct):
    """(nor, fs, lengths of the archived matches, settings, controller): `archived` short matches in hist/, then a
    14.1 match to 25 of PLAYED events played through the board's keys (its settings saved at
    its Start), a filler leaving about free_pct free, and the board back on the new-match
    screen (menu, New match, confirmed), as the referee leaves it before Start."""
    nor, fs = norflash.new_fs(BLOCKS)
    lengths = []
    with installed(fs) as shim:
        st = Store("")
        for k in range(archived):
            m = Match(st.fresh())
            for ev in long_141(20 + 7 * k, seed=k):
                m.apply(ev, False)
            lengths.append(len(m.log))
            m.log.close()
        st.fresh().close()  # the last one archived too: the board comes up on the setup screen
        ctl = _board()
        while ctl.model()["items"][ctl.cursor][0] != "target1":
            ctl.key("press", "8")
        while ctl.cfg["t1"] != 25:
            ctl.key("press", "6")
        ctl.key("press", "8")
        while ctl.cfg["t2"] != 25:
            ctl.key("press", "6")
        while ctl.model()["items"][ctl.cursor][0] != "player2":
            ctl.key("press", "8")
        _keys(ctl, "6 5 1")  # player 2's name changed, start, player 1 breaks
        assert ctl.cfg["p2"] != "P2" and ctl.cfg["t2"] == 25
        ctl.table.store.prune()  # (nothing to prune yet)
        while len(ctl.match.log) < PLAYED:
            _keys(ctl, "B")
            ctl.table.after_screen()
        cfg = dict(ctl.cfg)
        _keys(ctl, "# # 8 8 8 8 8 8 5 5")  # menu, New match, confirmed
        assert ctl.mode == "setup"
        _fill(shim, fs, free_pct)
    return nor, fs, lengths, cfg, ctl


def _lengths(st):
    # {n: events} of the archive's matches (each opened: recovered as a board would).
    out = {}
    for n in st.archived():
        j = Journal("%s/%d" % (st.hist, n)).open()
        out[n] = len(j)
        j.close()
    return out


def _start(ctl):
    # Start (5), then the app's passes' work until the pruning is done.
    ctl.key("press", "5")
    ctl.table.after_screen()
    st = ctl.table.store
    while st.due:
        st.work()


def test_pruning_keeps_the_match_just_archived_and_the_newest_three():
    # 20% free at Start: the oldest go for room (40% free wanted), but never the newest three.
    nor, fs, lengths, cfg, ctl = _image(5, 20)
    with installed(fs):
        assert not ctl.table.store.full()
        _start(ctl)
        assert ctl.mode == "lag" and ctl.msg == ["started"]
        st = Store("")
        got = _lengths(st)
        assert sorted(got) == [4, 5, 6] and st.free() < 40, (got, st.free())
        assert got[6] == PLAYED and got[5] == lengths[4] and got[4] == lengths[3]


def test_a_flash_short_of_room_asks_before_anything_goes():
    # 8% free (10 blocks): Start asks (mode "full"); Back deletes nothing; "Start, keep all"
    # starts with nothing deleted; on the next Start "Delete oldest" deletes the oldest for room,
    # never the match just archived.
    nor, fs, lengths, cfg, ctl = _image(3, 8)
    with installed(fs):
        st = ctl.table.store
        before = _lengths(st)
        ctl.key("press", "5")
        assert ctl.mode == "full" and ctl.match.s is None
        for kind in ("oled", "lcd20", "lcd16"):
            text = "\n".join(views.screen(ctl.model(), *views._KINDS[kind])[0])
            assert "Flash full" in text or kind == "lcd16", (kind, text)
            assert "Delete oldest" in text, (kind, text)
        assert views.render(ctl.model(), "digits") == "FULL dEL"
        ctl.lang = "tr"
        assert "Hafıza dolu" in views.screen(ctl.model(), 20, 4)[0]
        ctl.lang = "en"
        ctl.key("press", "D")  # back: the new-match screen, nothing gone
        assert ctl.mode == "setup" and _lengths(st) == before and Journal("match").open().head > 0
        _keys(ctl, "5 8")
        assert views.render(ctl.model(), "digits") == "FULL  Go"
        ctl.key("press", "5")  # Start, keep all
        assert ctl.mode == "lag" and st.keepn == 0
        while st.due:
            st.work()
        kept = _lengths(st)
        assert kept == {**before, 4: PLAYED}, kept
        _keys(ctl, "1 B B")
        ctl.match.log.close()
        _keys(ctl, "# # 8 8 8 8 8 8 5 5")  # a new match again, on a flash still short of room
        ctl.key("press", "5")
        assert ctl.mode == "full"
        ctl.key("press", "5")  # Delete oldest, and start
        assert ctl.mode == "lag"
        while st.due:
            st.work()
        got = _lengths(st)
        assert 5 in got and got[5] == 3 and 4 in got and got[4] == PLAYED or sorted(got) == [5], got
        assert min(got) > 1 and st.free() >= 15, (got, st.free())


def test_start_with_hist_a_file_moves_it_aside_and_archives():
    nor, fs, lengths, cfg, ctl = _image(0, 50)
    with installed(fs) as shim:
        shim.rmdir("hist")
        with shim.open("hist", "wb") as f:
            f.write(b"not a folder")
        _start(ctl)
        assert ctl.mode == "lag" and ctl.msg == ["moved", "hist.bad"]
        assert "Kept aside: hist.bad" in " ".join(views.screen(ctl.model(), 20, 4)[0])
        with shim.open("hist.bad", "rb") as f:
            assert f.read() == b"not a folder"
        assert _lengths(Store("")) == {1: PLAYED}


def _settings(cfg):
    # What the settings of a match are (the brightness of a wall panel is not one: none here).
    return {k: v for k, v in cfg.items() if k != "bright"}


def _boot(image):
    # The board after a power cut: mounted, booted as main.py does; (controller, fs).
    nor, fs = norflash.mount(image)
    with installed(fs):
        return _board(), fs


@pytest.mark.parametrize("free_pct", [20, 8])
def test_power_cut_at_every_flash_operation_of_start(free_pct):
    # A nearly full flash: at 20% free, Start archives and the pruning deletes the oldest two;
    # at 8%, Start asks and "Delete oldest" deletes down to the newest. A cut at every erase and
    # program from the key on (not done, and a program half done): the board comes up with the
    # settings of the match played, that match whole (current, or archived), every archived
    # match listed whole, and the newest three kept.
    nor, fs, lengths, cfg, ctl = _image(5 if free_pct == 20 else 3, free_pct)
    image = bytes(nor.buffer)
    log = nor.log = []  # pyright: ignore
    with installed(fs):
        ctl.key("press", "5")
        if free_pct < 15:
            assert ctl.mode == "full"
            ctl.key("press", "5")  # delete oldest
        assert ctl.mode == "lag"
        ctl.table.after_screen()
        while ctl.table.store.due:
            ctl.table.store.work()
        final = _lengths(Store(""))
    assert final[max(final)] == PLAYED and len(final) < len(lengths) + 1
    want = {**dict(zip(range(1, len(lengths) + 1), lengths)), len(lengths) + 1: PLAYED}
    cuts = 0
    for n, how, img in norflash.cuts(image, log):
        b, fs2 = _boot(img)
        with installed(fs2):
            assert b.msg in (None, ["bad_settings", "bright"]) or b.msg[0] == "resumed", b.msg
            assert _settings(b.cfg) == _settings(cfg), (n, how, b.cfg)
            got = _lengths(b.table.store)
            for k, v in got.items():
                assert want[k] == v, (n, how, k, v)  # every match listed is whole
            cur = len(b.match.log)
            if cur == PLAYED:  # not archived yet
                assert b.mode == "play"
            else:
                assert got.get(len(lengths) + 1) == PLAYED, (n, how, got, cur)
                assert cur <= 1  # the new match: its event, or not yet
            newest = sorted(want)[-3:] if cur != PLAYED else sorted(want)[-4:-1]
            kept = [k for k in newest if k in got]
            assert kept == newest or free_pct < 15 and kept[-1:] == newest[-1:], (n, how, got)
        cuts += 1
    print("\nStart at %d%% free: %d flash operations, %d cuts, every one kept the match and its "
          "settings" % (free_pct, len(log), cuts))
    assert cuts > 2 * len(log) * 0.9 and len(log) > 20, (cuts, len(log))


def test_a_key_during_start_is_acted_on_while_the_pruning_goes_on():
    # The pass that takes Start makes no removal: pruning goes a file a pass after it, and a
    # key pressed meanwhile is taken at once (the board's keys are sampled between passes).
    from tests.apprig import Rig

    nor, fs, lengths, cfg, ctl = _image(5, 20)
    with installed(fs):
        rig = Rig("oled", "keypad", store=Store(""))  # the match resumed: to a new match
        rig.keys("# # 8 8 8 8 8 8 5 5")
        assert rig.ctl.mode == "setup"
        st = rig.ctl.table.store
        ops = []
        tick = rig.runner.tick

        def counted(now):
            k = nor.ops
            out = tick(now)
            ops.append(nor.ops - k)
            return out

        rig.runner.tick = counted
        rig.press("5", settle=35)
        assert rig.ctl.mode == "lag" and st.due, rig.ctl.mode
        rig.press("1", hold=40, settle=35)  # player 1 breaks: during the pruning
        assert st.due and rig.ctl.mode == "play" and rig.state()["shooter"] == 0
        rig.run(3000)
        assert not st.due and sorted(_lengths(st)) == [4, 5, 6]
        # the flash operations a pass: Start's (archive, the new event, the settings) and a
        # removal's are a few; deleting whole matches at once took hundreds
        assert max(ops) <= 25, sorted(ops)[-5:]
        assert store._MIN == 3


def test_a_key_before_starts_steps_are_done_has_them_done_first():
    # Start's flash work is left to the app's passes; a key that makes a record before then has
    # it done first (archive, journal, the new event), so what its screen shows is on flash.
    nor, fs, lengths, cfg, ctl = _image(1, 50)
    with installed(fs):
        st = ctl.table.store
        ctl.key("press", "5")
        assert ctl.mode == "lag" and st.step == 1 and st.archived() == [1]  # nothing done yet
        ctl.key("press", "1")  # player 1 breaks
        assert ctl.mode == "play" and st.step == 4 and st.archived() == [1, 2]
        state = ctl.match.state()
        j = Journal("match").open()
        m = Match(j)
        m.rebuild()
        assert len(j) == 2 and m.state() == state
        j.close()
        while st.due:
            st.work()
        assert Store("").load_settings()[0]["t1"] == 25 and _lengths(st)[2] == PLAYED


def test_a_start_whose_archive_fails_keeps_the_match_and_says_not_saved(monkeypatch):
    # The rename into hist/ fails (a failing flash): the match played stays current on flash,
    # the screen says "Not saved: flash", and the new match goes on (in RAM).
    from firmware import store as store_mod
    from tests.apprig import Rig
    from tests.helpers import scratch_dir

    root = scratch_dir("archfail")
    rig = Rig("oled", "keypad", store=Store(root))
    rig.keys("2 5 1 B A B")
    played = len(rig.ctl.match.log)
    rig.keys("# # " + "8 " * 6 + "5 5")
    assert rig.ctl.mode == "setup"
    real = store_mod.os.rename

    def failing(a, b):
        if b.startswith(root + "/hist/"):
            raise OSError(5, "EIO")
        return real(a, b)

    monkeypatch.setattr(store_mod.os, "rename", failing)
    rig.press("5")
    rig.run(100)
    assert rig.ctl.msg == ["not_saved"] and rig.ctl.mode == "lag"
    assert any("Not saved" in row for row in rig.screen())
    rig.keys("1 A")  # the new match goes on
    assert rig.ctl.mode == "play" and len(rig.ctl.match.log) == 3
    monkeypatch.setattr(store_mod.os, "rename", real)
    j = Store(root).resume()
    assert j is not None and len(j) == played and Store(root).archived() == []
    j.close()
