#!/usr/bin/env bash
# Instructions that monitoring adds per operation (issue #28 goal 2): `MonitorCostBench` drains
# the same operations through a plain `OperationQueue`, an observable queue, and an observable
# queue a `QueueMonitor` watches, each run counted whole by valgrind's callgrind (every thread:
# the adding thread, the worker, the monitor's apply when it reads). Unlike CPU time, the counts
# barely move with the machine's load (thread interleavings move the queue's own part by ~1%),
# so two builds compare closely; the monitor's own functions compare exactly. Prints one row of the docs/BENCHMARKS.md table.
#
#   swift build -c release --product MonitorCostBench && Benchmarks/monitor-instructions.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "monitor-instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
count="${1:-100000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 can't read the DWARF 5 that swiftc writes: the symbol table is enough.
strip --strip-debug -o "$work/bench" .build/release/MonitorCostBench
instructions() {
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/$1.out" \
        "$work/bench" --queue="$1" --count="$count" >"$work/$1.log" 2>&1
    grep -m 1 '^summary:' "$work/$1.out" | awk '{print $2}'
}
plain="$(instructions plain)"
observable="$(instructions observable)"
monitored="$(instructions monitored)"
# The monitor's own part, which thread interleavings do not move: what the read applied
# (`QueueMonitor.snapshot()`) and the recording on the adding thread and the worker.
own="$(callgrind_annotate --inclusive=yes --threshold=100 "$work/monitored.out" 2>/dev/null | awk '
  /QueueB0C8snapshotAA0C8SnapshotVyF \[/ || /RecorderC0A3Kit25TicketedLifecycleListenerAadEP1[67]operation/ || /RecorderC5added33_/ {
    gsub(",", "", $1); sum += $1 }
  END { print sum }')"
echo "| 2. Monitoring (instructions) | $count operations drained on one worker, callgrind, whole process: monitored vs observable queue (the monitor's own functions: the read's apply and the recording), and vs a plain OperationQueue | $(((monitored - observable) / count)) per operation ($((own / count)) its own); observable queue +$(((observable - plain) / count)) over plain | — | $((plain / count)) per operation (plain queue) | — | +$(((monitored - observable) * 100 / observable))% over observable, +$(((monitored - plain) * 100 / plain))% over plain | — | — |"
