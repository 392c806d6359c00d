# Build and test frame: `make test` and `make lint` create .venv from requirements-dev.txt.
PY ?= python3
# The board-like MicroPython every heap figure is judged on (README: "The MicroPython VM").
MICROPYTHON ?= $(abspath ../shared/micropython/micropython-i686)
export MICROPYTHON
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# pyright: use the copy bundled in the wheel and system node; no version check online.
export PYRIGHT_PYTHON_IGNORE_WARNINGS := 1

.PHONY: venv test lint fix sim bench clean frozen test-frozen

venv: $(STAMP)

# The MicroPython stubs go to .venv/mpstubs, the typeshed of firmware/pyrightconfig.json,
# and not into the CPython venv, whose host-code checks they would otherwise leak into.
$(STAMP): requirements-dev.txt
	$(PY) -m venv $(VENV)
	grep -v -E '^micropython-(rp2|stdlib)-stubs==' requirements-dev.txt > $(VENV)/req-host.txt
	grep -E '^micropython-(rp2|stdlib)-stubs==' requirements-dev.txt > $(VENV)/req-stubs.txt
	$(BIN)/python -m pip install --quiet -r $(VENV)/req-host.txt
	rm -rf $(VENV)/mpstubs
	$(BIN)/python -m pip install --quiet --no-deps --target $(VENV)/mpstubs -r $(VENV)/req-stubs.txt
	touch $@

test: venv
	$(BIN)/python -m pytest -q tests

# The board-like VM with the firmware frozen in (manifest.py), as a custom board image would
# have it; needs Debian's build-essential gcc-i686-linux-gnu libc6-dev-i386-cross (about 40 s).
FROZEN_VM := build/frozen/micropython/ports/unix/build-i686-frozen/micropython
frozen: $(FROZEN_VM)
$(FROZEN_VM): manifest.py $(shell find firmware boards -name '*.py')
	$(dir $(MICROPYTHON))build-unix.sh build/frozen manifest.py

# The MicroPython tests again on the frozen VM (the heap then holds data, not code).
test-frozen: venv frozen
	MICROPYTHON=$(abspath $(FROZEN_VM)) MICROPYTHON_FROZEN=1 $(BIN)/python -m pytest -q \
	    tests/test_micropython.py tests/test_app_mp.py tests/test_mash_mp.py

lint: venv
	$(BIN)/ruff check .
	$(BIN)/pyright -p firmware/pyrightconfig.json
	$(BIN)/pyright -p pyrightconfig.json

fix: venv
	$(BIN)/ruff check --fix .

sim: venv
	$(BIN)/python -m host_tools.sim

bench: venv
	$(BIN)/python -m host_tools.bench

clean:
	rm -rf $(VENV) build node_modules .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
