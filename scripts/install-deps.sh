#!/usr/bin/env bash
# Installs the Debian packages a task needs, only those missing. Idempotent, non-interactive.
# Usage: scripts/install-deps.sh GROUP...   (groups: build test cli demo web bench docs arm64 python)
set -euo pipefail

declare -A GROUP=(
  [build]="cmake make gcc g++ clang pkg-config libexpat1-dev libcjson-dev libassimp-dev"
  [test]="libcmocka-dev cppcheck clang-format valgrind libclang-rt-14-dev liburdfdom-dev libassimp-dev assimp-utils"
  [cli]="libcjson-dev"
  [demo]="libcairo2-dev libgif-dev fonts-dejavu-core"
  [web]="lld wasi-libc libclang-rt-14-dev-wasm32 chromium nodejs npm"
  [bench]="liborocos-kdl-dev g++"
  [docs]="doxygen"
  [arm64]="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user"
  [python]="python3 python3-dev python3-venv python3-pip python3-setuptools python3-numpy python3-pytest python3-distributed libcjson-dev libexpat1-dev libassimp-dev pkg-config"
)

want=()
for g in "$@"; do
  [[ -n "${GROUP[$g]+x}" ]] || { echo "install-deps: unknown group '$g'" >&2; exit 2; }
  for p in ${GROUP[$g]}; do
    # Node.js may come from another Debian-format repack that already bundles npm.
    case $p in nodejs) command -v node >/dev/null && continue ;; npm) command -v npm >/dev/null && continue ;; esac
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || want+=("$p")
  done
done
[[ ${#want[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${want[*]}"
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
$sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${want[@]}"
