# What every host tool's command line shares: its parser, and output into a pipe its reader closed.
import argparse
import os
import sys


def parser(module, description, **kw):
    """The argparse parser of `python -m MODULE`: --help prints the usage, the one-line
    description and each option, then exits 0 before the tool reads, writes or connects to
    anything; a bad argument prints the usage and what is wrong on stderr and exits 2."""
    kw.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
    return argparse.ArgumentParser(prog="python -m " + module, description=description, **kw)


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
