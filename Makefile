# The README's commands. Each one installs what it needs first (scripts/install-deps.sh),
# then builds with CMake under build/. Safe to run again: nothing is redone needlessly.
# Front ends add their own targets and test steps in their folder's *.mk fragment.
.PHONY: all test test-core demo bench single-header format format-check lint clean FORCE

JOBS ?= 2
CMAKE_FLAGS ?=
CI_FLAGS := -DREACH_WERROR=ON
SOURCES = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
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
test-core: deps-build+test+cli format-check lint
	$(call build,build/float,)
	ctest --test-dir build/float --output-on-failure -j$(JOBS)
	scripts/test-packaging.sh build/float
	$(call build,build/double,-DREACH_DOUBLE=ON)
	ctest --test-dir build/double --output-on-failure -j$(JOBS)
	$(call build,build/asan,-DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DREACH_SANITIZE=address$(,)undefined)
	ctest --test-dir build/asan --output-on-failure -j$(JOBS)

# The single-header distribution, generated from the sources (never edited by hand).
single-header:
	scripts/amalgamate.sh build/reach.h
	@echo "wrote build/reach.h"

format: deps-test
	clang-format -i $(SOURCES)

format-check: deps-test
	clang-format --dry-run -Werror $(SOURCES)

lint: deps-test
	cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,portability,performance \
	  --inline-suppr -Iinclude -Isrc --suppress=missingIncludeSystem src

clean:
	rm -rf build out

-include $(wildcard */*.mk)

test: test-core $(TEST_STEPS)
	@echo "make test: all checks passed"

demo: deps-build+cli+demo
	$(call build,build/demo,-DREACH_BUILD_DEMO=ON -DREACH_BUILD_TESTS=OFF)
	build/demo/demo/reach-demo out

bench: deps-build+bench
	$(call build,build/bench,-DREACH_BUILD_BENCH=ON -DREACH_BUILD_TESTS=OFF -DREACH_BUILD_CLI=OFF)
	build/bench/bench/reach-bench --json bench/results.json
