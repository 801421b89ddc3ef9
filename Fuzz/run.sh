#!/usr/bin/env bash
# Builds the libFuzzer targets (release, AddressSanitizer, coverage) and runs each for SECONDS
# (default 20) on its committed corpus; fails on any crash, leak, timeout or over-limit memory.
# New inputs that reach new code go to Fuzz/.corpus/<target> (not committed); the committed seeds
# are in Fuzz/Corpus/<target>, the dictionaries in Fuzz/Dictionaries.
#
#   Fuzz/run.sh            # every target, 20 s each
#   Fuzz/run.sh 600        # every target, 10 minutes each
#   Fuzz/run.sh 600 FuzzViewer   # one target
#   FUZZ_CONFIG=debug Fuzz/run.sh 10   # CI's smoke run: a debug build (about a quarter of the
#                                      # release build's time, a third of its speed; -timeout=5)
#   Fuzz/run.sh --build-only           # build the targets, run nothing
#   FUZZ_JOBS=1 Fuzz/run.sh 600        # one target at a time (default: as many as cores)
set -euo pipefail
cd "$(dirname "$0")"
build_only=false
if [ "${1:-}" = "--build-only" ]; then build_only=true; shift; fi
seconds="${1:-20}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzScenario FuzzRecording FuzzEventLine FuzzViewer FuzzPublisher FuzzUntil FuzzRelayList)
swift_bin="$(dirname "$(readlink -f "$(command -v swift)")")"
fuzzer_lib="$(find "$swift_bin/../lib/clang" -name 'libclang_rt.fuzzer_no_main-x86_64.a' | head -n 1)"
if [ -z "$fuzzer_lib" ]; then echo "libclang_rt.fuzzer_no_main-x86_64.a not found under $swift_bin/../lib/clang" >&2; exit 1; fi
config="${FUZZ_CONFIG:-release}"
case "$config" in release) timeout=1 ;; debug) timeout=5 ;; *) echo "FUZZ_CONFIG is release or debug" >&2; exit 2 ;; esac
swift build -c "$config" --scratch-path .build \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
  -Xlinker "$fuzzer_lib"
bin=".build/$config"
if $build_only; then exit 0; fi
# Swift's own crash backtracer and AddressSanitizer get in each other's way.
export SWIFT_BACKTRACE=enable=no
declare -A dictionary=(
  [FuzzScenario]=scenario.dict [FuzzRecording]=events.dict [FuzzEventLine]=events.dict
  [FuzzViewer]=events.dict [FuzzPublisher]=commands.dict [FuzzUntil]=until.dict
  [FuzzRelayList]=events.dict
)
# Targets run side by side, as many at once as the machine has cores (FUZZ_JOBS to change it):
# each is one process, so on 2 cores two 20 s runs take 20 s, not 40.
jobs="${FUZZ_JOBS:-$(nproc)}"
fuzz() {
  local target=$1 status=0
  mkdir -p ".corpus/$target" "Findings/$target"
  # -rss_limit_mb: the documented input limits keep every parser far below 2 GiB (ASan included).
  # -timeout: no single input may take a second (five in a debug build).
  "$bin/$target" ".corpus/$target" "Corpus/$target" \
    -dict="Dictionaries/${dictionary[$target]}" \
    -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 -max_len=8192 \
    -artifact_prefix="Findings/$target/" -print_final_stats=1 >".corpus/$target.log" 2>&1 || status=$?
  echo "$status" >".corpus/$target.status"
}
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  echo "== $target: ${seconds} s"
  fuzz "$target" &
  running=$((running + 1))
done
wait
failed=()
for target in "${targets[@]}"; do
  echo "== $target"
  grep -E '^(#[0-9]+ *DONE|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY|fuzz check)' \
    ".corpus/$target.log" || true
  status="$(cat ".corpus/$target.status" 2>/dev/null || echo 1)"
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    echo "!! $target found a problem (exit $status): see Fuzz/.corpus/$target.log and Fuzz/Findings/$target/" >&2
  fi
done
if [ ${#failed[@]} -gt 0 ]; then echo "fuzzing failed: ${failed[*]}" >&2; exit 1; fi
echo "fuzzing: no findings (${targets[*]}, ${seconds} s each)"
