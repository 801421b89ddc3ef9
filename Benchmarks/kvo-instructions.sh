#!/usr/bin/env bash
# Instructions per KVO delivery (item 1: one change → one observer, [.new]) and per call of
# item 1's two baselines (a stored closure; a Mutex store + the closure), counted by valgrind's
# callgrind: unlike time it does not move with the machine's load, so two builds compare
# exactly. Each figure is a `KVOBench` function's inclusive count over `Ratios --only=none --profile-kvo`'s
# 1,000,000 iterations (its one-time setup included: under 0.01 per iteration). Prints one line.
#
#   Benchmarks/kvo-instructions.sh      # after `swift build -c release --package-path Benchmarks`
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "kvo-instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 can't read the DWARF 5 that swiftc writes: the symbol table is enough.
strip --strip-debug -o "$work/Ratios" .build/release/Ratios
valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/Ratios" --only=none --profile-kvo >"$work/log" 2>&1
callgrind_annotate --inclusive=yes "$work/out" >"$work/inclusive"
per() {
  local total
  total="$(grep -m 1 "KVOBenchO$1ySdSiFZ \[" "$work/inclusive" | awk '{gsub(",", "", $1); print $1}')"
  echo $((total / 1000000))
}
delivery="$(per 21deliveryToOneObserver)"
closure="$(per 13directClosure)"
locked="$(per 21lockedStoreAndClosure)"
echo "instructions per iteration: KVO delivery $delivery, closure call $closure ($(awk "BEGIN { printf \"%.2f\", $delivery / $closure }")×), Mutex store + closure $locked ($(awk "BEGIN { printf \"%.2f\", $delivery / $locked }")×)"
