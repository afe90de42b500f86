# The README's commands. Each one installs what it needs first (scripts/install-deps.sh),
# then builds with CMake under build/. Safe to run again: nothing is redone needlessly.
# Front ends add their own targets and test steps in their folder's *.mk fragment.
.PHONY: all test test-core test-packaging docs test-threads test-valgrind test-fuzz fuzz demo bench single-header format format-check lint clean FORCE

JOBS ?= 2
CMAKE_FLAGS ?=
CI_FLAGS := -DREACH_WERROR=ON
# The C sources: git's list in a checkout, else every C file outside build/ and node_modules.
SOURCES = $(or $(shell git ls-files '*.c' '*.h' 2>/dev/null),$(shell find . -name '*.[ch]' -not -path './build/*' -not -path '*/node_modules/*'))
, := ,

# Steps that `make test` runs after the core tests; fragments append to it.
TEST_STEPS :=

all: test-core

deps-%: FORCE
	@scripts/install-deps.sh $(subst +, ,$*)

# Configure and build one flavour: $(call build,DIR,CMAKE OPTIONS)
define build
	cmake -S . -B $(1) -DCMAKE_BUILD_TYPE=Release $(CI_FLAGS) $(2) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(1) -j$(JOBS)
endef

# Float (the default), double, and a sanitizer build (AddressSanitizer + UBSan, with clang).
# The float and double builds carry the demo renderer and its smoke test too. The double run
# records every request the CLI's tests send (REACH_CLI_RECORD), which python-test replays.
CLI_REQUESTS := build/double/cli-requests.jsonl
test-core: deps-build+test+cli+demo format-check lint
	$(call build,build/float,-DREACH_BUILD_BENCH=ON -DREACH_BUILD_DEMO=ON)
	ctest --test-dir build/float --output-on-failure --no-tests=error -j$(JOBS)
	$(call build,build/double,-DREACH_DOUBLE=ON -DREACH_BUILD_BENCH=ON -DREACH_BUILD_DEMO=ON)
	rm -f $(CLI_REQUESTS)
	REACH_CLI_RECORD=$(CURDIR)/$(CLI_REQUESTS) ctest --test-dir build/double --output-on-failure --no-tests=error -j$(JOBS)
	$(call build,build/asan,-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DREACH_SANITIZE=address$(,)undefined -DREACH_BUILD_BENCH=ON)
	ctest --test-dir build/asan --output-on-failure --no-tests=error -j$(JOBS)

# Each way into the library (installed package, pkg-config, single header, add_subdirectory).
test-packaging: test-core
	scripts/test-packaging.sh build/float

# ThreadSanitizer on the tests and examples that solve from several threads at once.
test-threads: deps-build+test
	$(call build,build/tsan,-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DREACH_SANITIZE=thread -DREACH_BUILD_CLI=OFF)
	ctest --test-dir build/tsan --output-on-failure --no-tests=error -R 'threads|crowd'

# Valgrind memcheck over every unit test (the core's and the formats library's) and the packed-bits programs, with the property sets cut
# to 1% (REACH_TEST_QUICK; a tenth for the packed-bits programs):
# invalid reads and writes, uses of uninitialised values, and leaks (but assimp's own, which it
# leaks when it refuses a file: scripts/valgrind-assimp.supp). JOBS tests at a time.
test-valgrind: test-core
	@find build/float/tests build/float/formats/tests -maxdepth 1 \( -name 'test_*' -o -name 'solve_hash_*' \) -type f -perm -u+x | sort | \
	  xargs -P$(JOBS) -I{} sh -c 'echo "valgrind {}"; \
	  REACH_TEST_QUICK=1 valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
	    --suppressions=scripts/valgrind-assimp.supp \
	    {} >/dev/null || { echo "valgrind {} FAILED"; exit 255; }'

# Every fuzz target for a bounded time, from a fixed seed and run count so CI repeats the same
# inputs; `make fuzz` explores freely for longer.
FUZZ_SECONDS ?= 20
test-fuzz: deps-build+test
	FUZZ_SEED=1 FUZZ_RUNS=20000 scripts/fuzz.sh $(FUZZ_SECONDS)

fuzz: deps-build+test
	scripts/fuzz.sh 600

# The single-header distribution, generated from the sources (never edited by hand).
single-header:
	@mkdir -p build
	scripts/amalgamate.sh build/reach.h
	@echo "wrote build/reach.h"

# The API reference from the headers' comments (build/docs/html); any warning fails.
docs: deps-docs
	doxygen docs/Doxyfile
	@echo "wrote build/docs/html/index.html"

format: deps-test
	clang-format -i $(SOURCES)

format-check: deps-test
	clang-format --dry-run -Werror $(SOURCES)

# cppcheck in the two configurations the library builds, float and double: left to itself it
# tries every combination of the sources' #ifdefs (SIMD kernels, sanitizers), three times as long.
CPPCHECK := cppcheck --quiet --error-exitcode=1 -j$(JOBS) --std=c11 --enable=warning,portability,performance \
	  --inline-suppr -Iinclude -Isrc -Icli -I/usr/include/cjson --suppress=missingIncludeSystem
lint: deps-test
	scripts/check-static-names.sh
	$(CPPCHECK) --max-configs=1 src cli
	$(CPPCHECK) -DREACH_DOUBLE src cli

clean:
	rm -rf build out

-include $(wildcard */*.mk)

test: test-core test-packaging docs test-threads test-valgrind test-fuzz $(TEST_STEPS)
	@echo "make test: all checks passed"

demo: deps-build+cli+demo
	$(call build,build/demo,-DREACH_BUILD_DEMO=ON -DREACH_BUILD_TESTS=OFF)
	build/demo/demo/reach-demo out

bench: deps-build+bench python
	$(call build,build/bench,-DREACH_BUILD_BENCH=ON -DREACH_BUILD_TESTS=OFF -DREACH_BUILD_CLI=OFF)
	build/bench/bench/reach-bench --json bench/results.json --svg bench/growth.svg
	$(PYTHON) bench/python_package.py --json bench/results.json
