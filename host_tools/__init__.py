# Host-side tools: replay, simulator, MicroPython runner.
