#!/usr/bin/env bash
# Instructions per frame, counted by valgrind's callgrind: unlike CPU time it does not move with
# the machine's load, so two builds compare exactly. Prints one row of the docs/BENCHMARKS.md table.
#
#   busy (default): item 3b's frame: snapshot, reduce, render, diff at 120×40 with 10 bars moving
#                   and 2.5 finishes per frame (sorted by state).
#   quiet:          item 3q's frame: one progress report a frame, nothing finishing, sorted by id
#                   (finished rows on screen, the moving bar below them): 1–3 rows change.
#   quiet-visible:  item 3r's frame: the same sorted by state (the moving bar is a table row).
#
#   Benchmarks/frame-instructions.sh [busy|quiet|quiet-visible]   # after `swift build -c release --package-path Benchmarks`
set -euo pipefail
cd "$(dirname "$0")"
case "${1:-busy}" in
busy) item=3b symbol=BusyFrameA0C5frameSiyF label="3b. Busy frame (instructions)" ;;
quiet) item=3q symbol=QuietFrameA0C5frameSiyF label="3q. Quiet frame (instructions)" ;;
quiet-visible) item=3r symbol=QuietFrameA0C5frameSiyF label="3r. Quiet frame, bar on screen (instructions)" ;;
*) echo "usage: frame-instructions.sh [busy|quiet|quiet-visible]" >&2; exit 2 ;;
esac
command -v valgrind >/dev/null || { echo "frame-instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 can't read the DWARF 5 that swiftc writes: the symbol table is enough.
strip --strip-debug -o "$work/Ratios" .build/release/Ratios
# Swift seeds its hashing per process (±1,500 instructions a frame run to run): fixed here.
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/Ratios" --smoke --only="$item" >"$work/log" 2>&1
callgrind_annotate --threshold=100 --inclusive=yes "$work/out" >"$work/inclusive"
callgrind_annotate --threshold=100 --tree=caller "$work/out" >"$work/callers"
total="$(grep -m 1 "$symbol \[" "$work/inclusive" | awk '{gsub(",", "", $1); print $1}')"
# The frame's callers, the "<" lines just above its "*" line, each say how many calls they made.
calls="$(awk -v symbol="$symbol" '
  /^ *[0-9,]+ .*< / { callers[++n] = $0; next }
  index($0, "*  ") && index($0, symbol " [") { for (i = 1; i <= n; i++) { if (match(callers[i], /\(([0-9,]+)x\)/)) { c = substr(callers[i], RSTART + 1, RLENGTH - 3); gsub(",", "", c); sum += c } } print sum; exit }
  { n = 0 }' "$work/callers")"
echo "| $label | same frame, instructions per frame under callgrind ($calls frames; does not move with load) | $((total / calls)) | — | — | — | — | — | — |"
