#!/usr/bin/env bash
# Peak memory of `opsdash --headless` with a reader that keeps up and with one that stalls:
# the output backlog must stay bounded whatever the reader's speed (docs/OPERATING.md, Headless mode).
#
#   Benchmarks/headless-memory.sh           # 2,000 long transfers and 100,000 small downloads
#   Benchmarks/headless-memory.sh --smoke   # CI: tiny scenarios, one second of stall
#
# Prints one line per run: scenario, reader, peak resident memory (VmHWM) and per operation.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
stall=10; flood=2000; wide=100000
if [ "${1:-}" = "--smoke" ]; then stall=1; flood=200; wide=2000; fi
# The release opsdash of the benchmarks' own build (run.sh builds it; this is quick when it has;
# BENCH_BUILT=1: already built, as in .ci/run).
[ -n "${BENCH_BUILT:-}" ] || swift build --package-path "$root/Benchmarks" -c release --product opsdash >/dev/null
bin="$root/Benchmarks/.build/release/opsdash"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/flood.json" <<JSON
{"name": "flood", "description": "long transfers: progress all the time", "concurrency": 500, "seed": 1,
 "operations": [{"id": "t-{i}", "kind": "download", "repeat": $flood, "size": 1000000000, "bandwidth": 1000000}]}
JSON
cat > "$work/wide.json" <<JSON
{"name": "wide", "description": "many small downloads", "concurrency": 32, "seed": 5,
 "operations": [{"id": "t-{i}", "kind": "download", "repeat": $wide, "size": {"min": 1000, "max": 64000},
                 "bandwidth": {"min": 1000000, "max": 4000000}}]}
JSON

# peak <scenario> <operations> <speed> <reader: fast|stalled>: the peak over `stall` seconds
# (or the whole run, if shorter).
peak() {
  local scenario=$1 operations=$2 speed=$3 reader=$4 pid kb=0 sample
  mkfifo "$work/out"
  "$bin" --headless --scenario "$work/$scenario.json" --speed "$speed" > "$work/out" 2>/dev/null &
  pid=$!
  exec 3<"$work/out"
  if [ "$reader" = fast ]; then cat <&3 > /dev/null & fi
  local samples=$((stall * 10))
  while [ "$samples" -gt 0 ]; do
    samples=$((samples - 1))
    sample=$(awk '/VmHWM/{print $2}' "/proc/$pid/status" 2>/dev/null) || break
    [ -n "$sample" ] || break
    kb=$sample
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true
  cat <&3 > /dev/null || true
  exec 3<&-
  wait 2>/dev/null || true
  rm -f "$work/out"
  awk -v s="$scenario" -v n="$operations" -v r="$reader" -v kb="$kb" \
    'BEGIN { printf "%-6s %8d ops  reader %-7s peak %7.1f MB  %6.0f B/op\n", s, n, r, kb / 1024, kb * 1024 / n }'
}
for reader in fast stalled; do peak flood "$flood" 100 "$reader"; done
for reader in fast stalled; do peak wide "$wide" 1000 "$reader"; done
