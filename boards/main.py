# Board entry: copied to the board as /main.py. Picks the profile named in /board.py, builds it, runs the app.
# /board.py (optional, one line):  BOARD = "esp32_devkit"      (default "pico")
# and, optionally, changes to the profile:  OPTIONS = {"display": "lcd20", "input": "buttons"}
# ("game": "8ball" preselects the game on the setup screen; "wdt_ms": 0 while developing).
# /deploy.flag (made by `make deploy`, host_tools/deploy.py): the board stays at the REPL and
# starts neither the app nor its watchdog, so the deploy can copy files at leisure; the deploy
# deletes the flag when every file is there, then resets the board. A deploy cut short leaves
# the flag: the board waits for the next deploy instead of running half-copied firmware, and its
# display says so (firmware.notice).
# Ctrl-C (mpremote exec, fs, mip, repl): the app says on its display that the board is at the
# REPL; hold() keeps the watchdog from resetting it there, also across the soft reset mpremote
# makes; machine.reset() or Ctrl-D at the REPL starts the scoreboard again, resumed.
import os
import sys
import time


def profile():
    # (board module, profile dict) from /board.py; the profile is a copy with OPTIONS applied.
    name = "pico"
    options = None
    try:
        import board

        name = getattr(board, "BOARD", name)
        options = getattr(board, "OPTIONS", None)
    except ImportError:
        pass
    __import__("boards." + name)
    mod = sys.modules["boards." + name]
    prof = dict(mod.PROFILE)
    if options:
        prof.update(options)
    return mod, prof


def main():
    mod, prof = profile()
    from firmware import boot
    from firmware.mem import unload

    boot.load(boot.APP)  # the app's modules one at a time, a collection after each
    unload("boot")
    hw = None
    try:
        hw = mod.build(prof)
        import machine

        # a watchdog reset: the last boot may have failed (safe mode, firmware.app.Runner)
        rc = getattr(machine, "reset_cause", None)
        hw.wdt_reset = rc is not None and rc() == getattr(machine, "WDT_RESET", 3)
        from firmware import app
        from firmware.store import Store

        # The match is kept on the board's flash (littlefs) and resumed after a power cut.
        store = Store("")
        app.run(hw, time.ticks_ms, time.sleep_ms, game=prof.get("game", "14.1"), store=store,
                net=network(prof, store))
    except KeyboardInterrupt:
        hold(hw)
        print("main.py: at the REPL; the match is kept (Ctrl-D or machine.reset(): the "
              "scoreboard again)")


def network(prof, store):
    # The club network (firmware/net.py, docs/network.md) on a board with Wi-Fi and a
    # /secrets.json (make deploy SECRETS=FILE), else None: without both, net.py is never
    # imported (its code and the MQTT client's are heap a board without them keeps).
    if not prof.get("wifi"):
        return None
    try:
        os.stat("secrets.json")
    except OSError:
        return None
    try:
        from firmware import net

        return net.start(prof, store)
    except Exception as e:  # noqa: BLE001 - a network that can't start: the scoreboard without
        print("main.py: no network:", repr(e))
        return None


_WATCHDOG = {"RP2040": 0x40058000, "RP2350": 0x400D8000}  # WATCHDOG CTRL's address
_feeder = None


def hold(hw):
    # The watchdog must not reset a board at the REPL. On an RP2040 or RP2350 it is paused (CTRL
    # ENABLE off, the debug-pause bits kept; the app's machine.WDT() enables it again): a soft
    # reset, which ends every Timer, leaves it paused. Elsewhere a timer feeds it.
    import machine

    global _feeder
    for chip in _WATCHDOG:
        if chip in getattr(sys.implementation, "_machine", ""):
            a = _WATCHDOG[chip]
            machine.mem32[a] = machine.mem32[a] & 0x07000000
            return
    wdt = hw and hw.wdt
    if wdt:
        _feeder = machine.Timer(0, period=1000, callback=lambda t: wdt.feed())


def failed(e):
    # An error that escaped the app (it shows its own): named in the safe-mode mark for the
    # next boot, which the watchdog brings (firmware.store.Store.booting).
    try:
        from firmware.store import Store

        st = Store("")
        if st.booting() is not None:  # (only while this boot is not yet healthy)
            st.fault(type(e).__name__)
        else:
            st.healthy()
    except Exception:  # noqa: BLE001
        pass


def held():
    try:
        os.stat("deploy.flag")
    except OSError:
        return False
    print("main.py: /deploy.flag: a deploy is copying files; the app is not started "
          "(make deploy finishes it; or delete /deploy.flag and reset)")
    try:  # a deploy's reset is no fault: the next boot is not a safe mode (Store.booting)
        os.remove("booting")
    except OSError:
        pass
    try:  # the display says so, in the settings' language: no watchdog, no app
        mod, prof = profile()
        prof["wdt_ms"] = 0
        lang = prof["lang"]
        try:
            import json

            with open("settings.json") as f:
                lang = json.load(f).get("lang", lang)
        except Exception:  # noqa: BLE001 - no settings (or none readable): the profile's
            pass
        hw = mod.build(prof)
        from firmware import notice

        notice.show(hw, "held", lang)
    except Exception as e:  # noqa: BLE001 - a half-copied firmware may not build a display
        print("main.py: no display:", repr(e))
    return True


if not held():
    try:
        main()
    except Exception as _e:  # noqa: BLE001
        failed(_e)
        raise
