# The board's real-time clock (UTC), for the times on the match records (firmware/journal.py).
# `make deploy` and `make pull` set it from the host (mpremote rtc --set); a board on Wi-Fi sets
# it by NTP (firmware/net.py). A Pico's RTC starts at 2021-01-01 on every hard boot (power on,
# machine.reset, the watchdog): a reading before 2025 is a clock never set, and gives no time.
# clock() allocates nothing: the RTC is read once (time.time(): a long int on a 32-bit port, a
# float on the unix VM) and then followed by the millisecond ticks, read again once a day and
# after set_utc() or mark().
import time

from firmware.mem import const

EPOCH = const(1735689600)  # 2025-01-01 00:00 UTC, seconds since 1970: clock()'s zero
_DAY = const(86400000)  # ms between two readings of the RTC (the ticks wrap after 6 days)
_OFF = 946684800 if time.gmtime(0)[0] == 2000 else 0  # a port counting from 2000: to 1970
OFF = _OFF  # (time.time() + OFF: seconds since 1970 on any port)

ntp = False  # the clock was set by NTP since boot (firmware/net.py)
_s = None  # seconds since EPOCH at tick _k (-1: the clock was never set), None: to read
_k = 0
_soft = False  # set_utc() without a device (the unix VM): kept here, not read again
device = None  # the board's machine.RTC() (boards/__init__.py sets it), or None

def _mono():
    # CPython's (no ticks_ms): a millisecond counter of the same 2**30 period
    return int(getattr(time, "monotonic")() * 1000) & 0x3FFFFFFF  # noqa: B009 (no stub)


def _wrap(a, b):
    # CPython's ticks difference (the same 2**30 period; firmware.keys, not loaded with the
    # journal alone, has one too)
    return (a - b + 0x20000000) % 0x40000000 - 0x20000000


_ticks = getattr(time, "ticks_ms", _mono)
ticks_diff = getattr(time, "ticks_diff", _wrap)


def read():
    """The RTC as it is: seconds since 1970 UTC (tests put a clock of their own here, then
    call mark())."""
    return int(time.time()) + _OFF


def mark():
    # The RTC was set (or read() replaced): clock() reads it again.
    global _s, _soft
    _s = None
    _soft = False


def clock():
    """Seconds since 2025-01-01 00:00 UTC (a small int on any port), or -1 when the clock was
    never set."""
    global _s, _k
    k = _ticks()
    if _s is None or not _soft and ticks_diff(k, _k) >= _DAY:
        s = read() - EPOCH
        _s = s if s >= 0 else -1
        _k = k
    if _s < 0:
        return -1
    return _s + ticks_diff(k, _k) // 1000


def now():
    """Seconds since 1970 UTC, or 0 when the clock was never set."""
    c = clock()
    return c + EPOCH if c >= 0 else 0


def set_utc(t, by_ntp=False):
    """Set the clock to t, seconds since 1970 UTC (by_ntp: from an NTP server)."""
    global ntp, _s, _k, _soft
    if device is not None:
        tm = time.gmtime(t - _OFF)
        device.datetime((tm[0], tm[1], tm[2], tm[6], tm[3], tm[4], tm[5], 0))
        mark()
    else:  # no RTC to set: the time kept here
        _s = t - EPOCH if t >= EPOCH else -1
        _k = _ticks()
        _soft = True
    ntp = ntp or by_ntp
