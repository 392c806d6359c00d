# What every host tool's command line shares: output into a pipe its reader closed early.
import os
import sys


def run(main, *args):
    """sys.exit(main(*args)), quietly when stdout is a pipe the reader closed (`| head`): no
    BrokenPipeError traceback, and none at exit when Python flushes stdout again."""
    try:
        code = main(*args)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)
