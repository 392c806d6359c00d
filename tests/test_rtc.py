# mp: yes
# The board's real-time clock (firmware/rtc.py): seconds since 1970 UTC or "never set" (a Pico's
# RTC at 2021 after a hard boot), followed by the ticks without allocating, set by set_utc().
import gc
import time

from firmware import rtc

SET = 1796278852  # 2026-12-03 06:20:52 UTC
PICO_BOOT = 1609459200  # 2021-01-01 00:00 UTC: a Pico's RTC after every hard boot


def clock_at(t):
    # The RTC reading t (seconds since 1970) from now on (tests/test_journal_times.py too).
    rtc.read = lambda: t
    rtc.mark()


def clock_back():
    # The RTC read as the port reads it again.
    rtc.read = _READ
    rtc.mark()


_READ = rtc.read


def test_the_ports_epoch_is_1970_in_what_now_gives():
    # time.time() counts from 2000 on some ports, from 1970 on others: now() is from 1970.
    clock_back()
    try:
        t = rtc.now()
        assert t == 0 or abs(t - (int(time.time()) + rtc._OFF)) <= 2
        y = time.gmtime(rtc.read() - rtc._OFF)[0]
        assert rtc.now() == 0 if y < 2025 else rtc.now() > rtc.EPOCH
    finally:
        clock_back()


def test_a_clock_before_2025_was_never_set():
    try:
        clock_at(PICO_BOOT)
        assert rtc.clock() == -1 and rtc.now() == 0
        clock_at(rtc.EPOCH - 1)
        assert rtc.now() == 0
        clock_at(rtc.EPOCH)
        assert rtc.clock() == 0 and rtc.now() == rtc.EPOCH
    finally:
        clock_back()


def test_a_set_clock_gives_seconds_since_1970():
    try:
        clock_at(SET)
        assert rtc.clock() == SET - rtc.EPOCH
        assert rtc.now() == SET
        assert time.gmtime(rtc.now() - rtc._OFF)[:6] == (2026, 12, 3, 6, 20, 52)
    finally:
        clock_back()


def test_the_clock_follows_the_ticks_once_read():
    try:
        clock_at(SET)
        a = rtc.clock()
        rtc.read = lambda: PICO_BOOT  # (not read again within the day: the ticks count)
        time.sleep(1.1)
        b = rtc.clock()
        assert 1 <= b - a <= 2
        rtc.mark()  # read again: the new reading counts
        assert rtc.clock() == -1
    finally:
        clock_back()


def test_reading_the_clock_allocates_nothing():
    try:
        clock_at(SET)
        rtc.clock()
        alloc = getattr(gc, "mem_alloc", None)  # (MicroPython's: measured on the VM)
        gc.collect()
        a = alloc() if alloc else 0
        for _ in range(20):
            rtc.clock()
        b = alloc() if alloc else 0
        assert b - a == 0, b - a
    finally:
        clock_back()


def test_set_utc_sets_the_clock_and_says_ntp():
    was = rtc.ntp
    try:
        clock_at(PICO_BOOT)
        rtc.set_utc(SET, True)
        assert abs(rtc.now() - SET) <= 1 and rtc.ntp
        rtc.set_utc(PICO_BOOT)  # (a time before 2025: not set)
        assert rtc.now() == 0
    finally:
        rtc.ntp = was
        clock_back()
