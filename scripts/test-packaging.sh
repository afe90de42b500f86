#!/usr/bin/env bash
# Proves each way into reach works as a user would take it, building and running every
# program in examples/:
#   1. installed, through CMake's find_package(reach)
#   2. installed, through pkg-config
#   3. as the generated single header
#   4. pulled into another project with add_subdirectory (builds only the library)
# Usage: scripts/test-packaging.sh BUILD_DIR   (a configured, built reach tree)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/test-packaging.sh BUILD_DIR}
work=build/packaging
rm -rf "$work"
mkdir -p "$work"
prefix=$PWD/$work/prefix
passed=0
failed=0
check() { # NAME COMMAND...
  local name=$1
  shift
  if "$@" >"$work/$name.log" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name (log: $work/$name.log)"
    tail -20 "$work/$name.log"
  fi
}

cmake --install "$build" --prefix "$prefix" >/dev/null

installed_cli() { "$prefix/bin/reach" --version; }
check installed_cli installed_cli

find_package_build() {
  cmake -S tests/consumer -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
    -DREACH_EXAMPLES_DIR="$PWD/examples" &&
    cmake --build "$work/consumer" -j2 &&
    ctest --test-dir "$work/consumer" --output-on-failure
}
check find_package find_package_build

# Warnings as errors: the examples are what users copy.
strict="-std=c11 -Wall -Wextra -Wpedantic -Wconversion -Werror"
pkg_config_build() {
  local flags
  flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib/$(gcc -print-multiarch)/pkgconfig" pkg-config --cflags --libs reach)
  for source in examples/*.c; do
    local name
    name=$(basename "$source" .c)
    # shellcheck disable=SC2086
    cc $strict "$source" $flags -pthread -o "$work/pc_$name" && "$work/pc_$name" >/dev/null || return 1
  done
}
check pkg_config pkg_config_build

single_header_build() {
  scripts/amalgamate.sh "$work/reach.h"
  # The examples include "reach/reach.h": give them the single header under that name, plus
  # one file that holds the implementation, compiled once per precision.
  mkdir -p "$work/single/reach"
  cp "$work/reach.h" "$work/single/reach/reach.h"
  printf '#define REACH_IMPLEMENTATION\n#include "reach/reach.h"\n' >"$work/single/impl.c"
  for precision in "" "-DREACH_DOUBLE"; do
    local implementation=$work/single/impl${precision:+_double}.o
    # shellcheck disable=SC2086
    cc $strict $precision -I"$work/single" -c "$work/single/impl.c" -o "$implementation" || return 1
    for source in examples/*.c; do
      local name
      name=$(basename "$source" .c)${precision:+_double}
      # shellcheck disable=SC2086
      cc $strict $precision -I"$work/single" "$source" "$implementation" -lm -pthread -o "$work/single_$name" &&
        "$work/single_$name" >/dev/null || return 1
    done
  done
}
check single_header single_header_build

subdirectory_build() {
  mkdir -p "$work/sub"
  cat >"$work/sub/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(uses_reach LANGUAGES C)
add_subdirectory("$PWD" reach)
if(TARGET test_math OR TARGET reach-cli)
  message(FATAL_ERROR "add_subdirectory must build only the library")
endif()
add_executable(quickstart "$PWD/examples/quickstart.c")
target_link_libraries(quickstart PRIVATE reach::reach)
CMAKE
  cmake -S "$work/sub" -B "$work/sub/build" && cmake --build "$work/sub/build" -j2 && "$work/sub/build/quickstart"
}
check add_subdirectory subdirectory_build

echo "packaging: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
