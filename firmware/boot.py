# Boot-time loading: the app's modules one at a time, leaves first, each followed by a garbage
# collection, so that the garbage of loading one module is gone before the next one loads into
# the heap (measured on the board-like VM: a whole match needs 6 KB less heap than with one
# import of firmware.app). boards/main.py calls load(APP), then lets this module go.
import gc

APP = ("firmware.rules", "firmware.match", "firmware.rtc", "firmware.journal", "firmware.store",
       "firmware.lang", "firmware.views", "firmware.keys", "firmware.table", "firmware.ui",
       "firmware.hw", "firmware.app")


def load(names):
    for name in names:
        __import__(name)
        gc.collect()
