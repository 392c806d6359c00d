# Pool scoreboard firmware: rules core, input, views and drivers (MicroPython + CPython).
