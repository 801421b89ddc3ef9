#!/usr/bin/env bash
# Runs every OpsDash benchmark: package-benchmark's suite (absolute numbers, malloc counters),
# then the side-by-side `Ratios` table (what docs/BENCHMARKS.md quotes), then
# headless mode's peak memory with a fast and a stalled reader (headless-memory.sh).
#
#   Benchmarks/run.sh           # standard run (plain-queue chains 2k/5k/10k, once each)
#   Benchmarks/run.sh --full    # also the plain 20,000 chain (~55 s on its own)
#   Benchmarks/run.sh --smoke   # CI: release build, every tool once at tiny sizes, no thresholds;
#                               # the package-benchmark suite is built, not run (its workloads are
#                               # Ratios' own, and its plugin's tool build alone is ~1.5 min)
#   BENCH_BUILT=1 Benchmarks/run.sh --smoke   # the release build (and its opsdash) is already
#                                             # there: .ci/run builds it before the tests
set -euo pipefail
cd "$(dirname "$0")"
ratios=()
memory=()
case "${1:-}" in
  --smoke) export OPSDASH_BENCH_SMOKE=1; ratios=(--smoke); memory=(--smoke) ;;
  --full) export OPSDASH_BENCH_FULL=1; ratios=(--full) ;;
  "") ;;
  *) echo "usage: $0 [--smoke|--full]" >&2; exit 2 ;;
esac
# Each step says when it starts (seconds since the start), as .ci/run's do.
stage() { echo "== Benchmarks/run.sh ${SECONDS}s: $*"; }
if [ -z "${BENCH_BUILT:-}" ]; then
  stage build
  swift build -c release
  # The release opsdash headless-memory.sh measures, built from the same release modules.
  swift build -c release --product opsdash
fi
if [ -z "${OPSDASH_BENCH_SMOKE:-}" ]; then
  stage package-benchmark suite
  swift package benchmark --no-progress
fi
stage Ratios
.build/release/Ratios "${ratios[@]}"
stage headless memory
./headless-memory.sh "${memory[@]}"
stage RemoteBench
.build/release/RemoteBench "${ratios[@]}"
stage done
