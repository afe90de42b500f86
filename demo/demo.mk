# The demo renderer's checks, included by the top-level Makefile (`make demo` itself is there).
#   make demo-test   builds reach-demo and its smoke test in float and in double, and runs them
#                    (part of `make test`)
.PHONY: demo-test

DEMO_TEST_TARGETS := --target reach-demo test_demo_smoke

# $(call demo_check,DIR,CMAKE OPTIONS): only the demo's targets, then only the demo's tests.
define demo_check
	cmake -S . -B $(1) -DCMAKE_BUILD_TYPE=Release $(CI_FLAGS) -DREACH_BUILD_DEMO=ON -DREACH_BUILD_TESTS=ON \
	  -DREACH_BUILD_CLI=OFF $(2) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(1) -j$(JOBS) $(DEMO_TEST_TARGETS)
	ctest --test-dir $(1) -R '^demo_' --output-on-failure -j$(JOBS)
endef

demo-test: deps-build+test+demo
	$(call demo_check,build/demo-test/float,)
	$(call demo_check,build/demo-test/double,-DREACH_DOUBLE=ON)

TEST_STEPS += demo-test
