#!/usr/bin/env bash
# The single-header build (scripts/amalgamate.sh) puts every source file in one translation
# unit, so a static function's or variable's name must be unique across src/. Lists the clashes
# and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
clashes=$(for f in src/*.c; do
  grep -oE '^static [A-Za-z_0-9 *]+[ *]([a-z_][a-z_0-9]*) *(\(|\[|=)' "$f" |
    sed -E 's/.*[ *]([a-z_][a-z_0-9]*) *(\(|\[|=)$/\1/' | sort -u | sed "s|$| $f|"
done | sort | awk '{n[$1]++; f[$1] = f[$1] " " $2} END {for (k in n) if (n[k] > 1) print "  " k ":" f[k]}')
if [[ -n $clashes ]]; then
  echo "static functions or variables that share a name across src/ (the single header needs them unique):" >&2
  echo "$clashes" >&2
  exit 1
fi
