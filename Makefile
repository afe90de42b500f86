# The README's commands. Each one installs what it needs first (scripts/install-deps.sh),
# then builds with CMake under build/. Safe to run again: nothing is redone needlessly.
.PHONY: all test demo bench format format-check lint deps clean

JOBS ?= 2
CMAKE_FLAGS ?=
CI_FLAGS := -DREACH_WERROR=ON
SOURCES = $(shell git ls-files '*.c' '*.h' 2>/dev/null || find include src cli demo bench tests examples -name '*.[ch]')

all: build/float/.built

deps-%:
	@scripts/install-deps.sh $(subst +, ,$*)

# configure-and-build one flavour: $(call build,DIR,CMAKE OPTIONS)
define build
	cmake -S . -B $(1) -DCMAKE_BUILD_TYPE=$(or $(BUILD_TYPE),Release) $(CI_FLAGS) $(2) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(1) -j$(JOBS)
endef

build/float/.built: FORCE | deps-build+test+cli
	$(call build,build/float,)
	@touch $@

test: deps-build+test+cli format-check lint
	$(call build,build/float,)
	ctest --test-dir build/float --output-on-failure -j$(JOBS)
	$(call build,build/double,-DREACH_DOUBLE=ON)
	ctest --test-dir build/double --output-on-failure -j$(JOBS)
	$(call build,build/asan,-DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DREACH_SANITIZE=address$(,)undefined)
	ctest --test-dir build/asan --output-on-failure -j$(JOBS)
	@echo "make test: all checks passed"

demo: deps-build+cli+demo
	$(call build,build/demo,-DREACH_BUILD_DEMO=ON -DREACH_BUILD_TESTS=OFF)
	build/demo/demo/reach-demo out

bench: deps-build+bench
	$(call build,build/bench,-DREACH_BUILD_BENCH=ON -DREACH_BUILD_TESTS=OFF -DREACH_BUILD_CLI=OFF)
	build/bench/bench/reach-bench --json bench/results.json

format: deps-test
	clang-format -i $(SOURCES)

format-check: deps-test
	clang-format --dry-run -Werror $(SOURCES)

lint: deps-test
	cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,portability,performance \
	  --inline-suppr -Iinclude -Isrc --suppress=missingIncludeSystem src cli

clean:
	rm -rf build out

, := ,
FORCE:
