#!/usr/bin/env bash
# Instructions per busy frame (item 3b's frame: snapshot, reduce, render, diff at 120×40 with 10
# bars moving and 2.5 finishes per frame), counted by valgrind's callgrind: unlike CPU time it
# does not move with the machine's load, so two builds compare exactly. Prints one row of the docs/BENCHMARKS.md table.
#
#   Benchmarks/frame-instructions.sh      # after `swift build -c release --package-path Benchmarks`
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "frame-instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 can't read the DWARF 5 that swiftc writes: the symbol table is enough.
strip --strip-debug -o "$work/Ratios" .build/release/Ratios
# Swift seeds its hashing per process (±1,500 instructions a frame run to run): fixed here.
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/Ratios" --smoke --only=3b >"$work/log" 2>&1
callgrind_annotate --inclusive=yes "$work/out" >"$work/inclusive"
callgrind_annotate --tree=caller "$work/out" >"$work/callers"
total="$(grep -m 1 'BusyFrameA0C5frameSiyF \[' "$work/inclusive" | awk '{gsub(",", "", $1); print $1}')"
# The frame's callers, the "<" lines just above its "*" line, each say how many calls they made.
calls="$(awk '
  /^ *[0-9,]+ .*< / { callers[++n] = $0; next }
  /\*  .*BusyFrameA0C5frameSiyF \[/ { for (i = 1; i <= n; i++) { if (match(callers[i], /\(([0-9,]+)x\)/)) { c = substr(callers[i], RSTART + 1, RLENGTH - 3); gsub(",", "", c); sum += c } } print sum; exit }
  { n = 0 }' "$work/callers")"
echo "| 3b. Busy frame (instructions) | same frame, instructions per frame under callgrind ($calls frames; does not move with load) | $((total / calls)) | — | — | — | — | — | — |"
