#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, AddressSanitizer, UndefinedBehaviorSanitizer) and runs
# each for SECONDS (the library is instrumented for coverage too), as many at once as there are
# cores (FUZZ_JOBS), starting from its committed seed corpus in fuzz/corpus/TARGET. New inputs
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
# One target: its summary lines on stdout, its verdict in $build/$target.status.
run_target() {
  local target=$1 corpus=$build/corpus/$1
  mkdir -p "$corpus"
  # FUZZ_SEED and FUZZ_RUNS make a run repeatable: the same inputs in the same order on any
  # machine (a slower one stops earlier in the same sequence).
  if "$build/fuzz/$target" -max_total_time="$seconds" ${FUZZ_SEED:+-seed=$FUZZ_SEED} ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} \
    -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/" -print_final_stats=0 "$corpus" "fuzz/corpus/$target" \
    >"$build/$target.log" 2>&1; then
    echo passed >"$build/$target.status"
    echo "fuzz: $target passed: $(grep -E '^#[0-9]+.*DONE' "$build/$target.log" | tail -1 || true)"
  else
    echo failed >"$build/$target.status"
    echo "fuzz: $target FAILED; log in $build/$target.log"
    grep -E 'invariant failed|ERROR|SUMMARY|runtime error' "$build/$target.log" | head -10 || true
  fi
}

# Each target is one process on one core: FUZZ_JOBS of them (the cores) run at once.
jobs_at_once=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
((jobs_at_once >= 1)) || jobs_at_once=1
# An interrupted run takes its fuzzers with it.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
echo "fuzz: ${#targets[@]} targets for ${seconds}s each, $jobs_at_once at a time"
for target in "${targets[@]}"; do
  rm -f "$build/$target.status"
  while (($(jobs -rp | wc -l) >= jobs_at_once)); do wait -n || true; done
  run_target "$target" &
done
wait
passed=0
failed=0
for target in "${targets[@]}"; do
  if [[ $(cat "$build/$target.status" 2>/dev/null) == passed ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
