# CPython stand-in for MicroPython's `micropython` module: only what the vendored drivers import.


def const(x):
    return x


def native(f):
    return f


def viper(f):
    return f
