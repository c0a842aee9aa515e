#!/usr/bin/env bash
# Builds everything and runs the whole test suite (CTest with GoogleTest). Runs the set-up first, so
# it works on a fresh Debian 12 machine. Usage: scripts/test.sh [release|debug|asan|noexcept]
# (noexcept: the runtime libraries and their tests only, compiled with -fno-exceptions)
set -euo pipefail
cd "$(dirname "$0")/.."

preset="${1:-release}"
bash scripts/setup.sh
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
ctest --preset "$preset" -j "$(nproc)"
