# The NEON kernels of the batches, built for 64-bit Arm and run under qemu-user: every chain
# gives the scalar kernel's bits (batch FABRIK) and every limb agrees with it within the tests'
# tolerance (two-bone, world-space and rig), in float and double. The unit tests check the x86 kernels the same way.
.PHONY: test-arm64
ARM64_CC := aarch64-linux-gnu-gcc
ARM64_FLAGS := -std=c11 -O2 -Wall -Wextra -Wpedantic -Wconversion -Werror -fno-math-errno -static -Iinclude -Isrc
ARM64_SOURCES = tests/arm64/kernels_agree.c $(wildcard src/*.c)

test-arm64: deps-arm64
	@mkdir -p build/arm64
	$(ARM64_CC) $(ARM64_FLAGS) -o build/arm64/kernels_agree $(ARM64_SOURCES) -lm
	$(ARM64_CC) $(ARM64_FLAGS) -DREACH_DOUBLE -o build/arm64/kernels_agree_double $(ARM64_SOURCES) -lm
	qemu-aarch64 build/arm64/kernels_agree
	qemu-aarch64 build/arm64/kernels_agree_double

TEST_STEPS += test-arm64
