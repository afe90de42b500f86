#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, AddressSanitizer, UndefinedBehaviorSanitizer) and runs
# each for SECONDS (the library is instrumented for coverage too), starting from its committed seed corpus in fuzz/corpus/TARGET. New inputs
# it finds go to build/fuzz/corpus/TARGET, not into the repository; a crash is saved as
# build/fuzz/crash-* and fails the run.
#   scripts/fuzz.sh SECONDS [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
build=build/fuzz
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DREACH_SANITIZE=address,undefined -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link -DREACH_BUILD_FUZZ=ON -DREACH_BUILD_TESTS=OFF \
  -DREACH_BUILD_CLI=OFF -DREACH_WERROR="${REACH_WERROR:-ON}" >/dev/null
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for source in fuzz/fuzz_*.c; do targets+=("$(basename "$source" .c)"); done
fi
cmake --build "$build" -j2 --target "${targets[@]}"
passed=0
failed=0
for target in "${targets[@]}"; do
  corpus=$build/corpus/$target
  mkdir -p "$corpus"
  echo "fuzz: $target for ${seconds}s"
  # FUZZ_SEED and FUZZ_RUNS make a run repeatable: the same inputs in the same order on any
  # machine (a slower one stops earlier in the same sequence).
  if "$build/fuzz/$target" -max_total_time="$seconds" ${FUZZ_SEED:+-seed=$FUZZ_SEED} ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} \
    -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/" -print_final_stats=0 "$corpus" "fuzz/corpus/$target" \
    >"$build/$target.log" 2>&1; then
    passed=$((passed + 1))
    grep -E '^#[0-9]+.*DONE' "$build/$target.log" | tail -1 || true
  else
    failed=$((failed + 1))
    echo "fuzz: $target FAILED; log in $build/$target.log"
    grep -E 'invariant failed|ERROR|SUMMARY|runtime error' "$build/$target.log" | head -10 || true
  fi
done
echo "fuzz: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
