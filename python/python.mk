# The Python package (python/): built with Debian's Python 3 and Debian's packages only, into a
# virtual environment under build/ that sees the system's numpy, pytest and dask
# (--system-site-packages; Debian's own Python is externally managed), installed offline.
.PHONY: python python-test python-bench

PYTHON_VENV := build/python-venv
PYTHON := $(PYTHON_VENV)/bin/python
# What the tests compare with: the reach tool, its tests and the C batch as a program
# (python/tests), from the double build that test-core makes (the package computes in double).
PYTHON_ORACLES := build/double
PYTHON_ORACLE_TARGETS := reach_cli reach_batch_oracle $(basename $(notdir $(wildcard cli/tests/test_cli_*.c)))

TEST_STEPS += python-test

$(PYTHON):
	/usr/bin/python3 -m venv --system-site-packages $(PYTHON_VENV)

# setuptools reuses object files by date alone, whatever flags changed: each install compiles afresh.
python: deps-build+cli+python $(PYTHON)
	rm -rf python/build
	$(PYTHON) -m pip install --quiet --no-build-isolation --no-index --no-deps --force-reinstall ./python

# Every request the CLI's own tests send is replayed through reach.solve
# (python/tests/test_cli_parity.py) and its answer compared: test-core's double run records them
# ($(CLI_REQUESTS)); alone, or after the tool was rebuilt, python-test records them afresh.
python-test: python deps-test
	cmake -S . -B $(PYTHON_ORACLES) -DCMAKE_BUILD_TYPE=Release $(CI_FLAGS) -DREACH_DOUBLE=ON -DREACH_BUILD_BENCH=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(PYTHON_ORACLES) --target $(PYTHON_ORACLE_TARGETS) -j$(JOBS)
	test $(CLI_REQUESTS) -nt $(PYTHON_ORACLES)/cli/reach || REACH_CLI_RECORD=$(CURDIR)/$(CLI_REQUESTS) \
	  ctest --test-dir $(PYTHON_ORACLES) --output-on-failure -R '^test_cli_' -j$(JOBS) >/dev/null
	REACH_CLI=$(CURDIR)/$(PYTHON_ORACLES)/cli/reach \
	REACH_BATCH_ORACLE=$(CURDIR)/$(PYTHON_ORACLES)/python/reach_batch_oracle \
	REACH_CLI_RECORD=$(CURDIR)/$(CLI_REQUESTS) \
	  $(PYTHON) -m pytest -q python/tests
