# A fake GPIO pin for tests (CPython and MicroPython): the one every fake bus and key model uses
# (host_tools.fakekeys: the keypad matrix and scripted presses; host_tools.fakes: the buses).


class FakePin:
    # A GPIO pin: .value() reads, .value(v) drives, calling it does the same; set() sets the
    # level an input reads; init(), on() and off() as machine.Pin has them. With bus (a fake SPI
    # of host_tools.fakes) each change of the level driven is recorded in bus.records as
    # ("cs", level): a chip select, reset or D/C line.
    OUT = 1
    IN = 0

    def __init__(self, level=1, bus=None):
        self.level = level
        self.bus = bus
        self.reads = 0

    def init(self, mode=None, pull=None, value=None):
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            self.reads += 1
            return self.level
        v = 1 if v else 0
        if v != self.level and self.bus is not None:
            self.bus.records.append(("cs", v))
        self.level = v
        return None

    def __call__(self, v=None):
        return self.value(v)

    def set(self, level):
        self.level = level

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)
