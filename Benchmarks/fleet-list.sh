#!/usr/bin/env bash
# The fleet list's budget (issue #27): APPS apps publishing their queues (Demos/AppExample, each
# running its demo work) and `opsdash attach` showing their fleet list in tmux, side by side:
#   - opsdash's CPU while it lists them (budget at 50 apps: < 2% of a core),
#   - the apps' CPU with the list open vs without it, per app (budget: < 0.5% of a core),
# alternating "without" and "with" windows of WINDOW seconds for ROUNDS rounds; CPU time from
# /proc/PID/stat (utime + stime), release builds.
#
#   Benchmarks/fleet-list.sh                 # 50 apps, 20 s windows, 3 rounds
#   Benchmarks/fleet-list.sh 200 20 1        # 200 apps, one round
#
# Prints one line per round and a median line.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
apps=${1:-50}; window=${2:-20}; rounds=${3:-3}
for product in opsdash AppExample; do
  swift build --package-path "$root" -c release --product "$product" --scratch-path "$root/.build-release" >/dev/null
done
bin="$root/.build-release/release/opsdash"
app="$root/.build-release/release/AppExample"
work="$(mktemp -d)"; chmod 700 "$work"
tmux=(tmux -L "opsdash-fleet-bench-$$")
pids=()
cleanup() {
  "${tmux[@]}" kill-server 2>/dev/null || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq "$apps"); do
  XDG_RUNTIME_DIR="$work" "$app" >/dev/null 2>&1 &
  pids+=($!)
done
deadline=$((SECONDS + 120))
until [ "$(ls "$work/opsdash" 2>/dev/null | grep -c '\.json$')" -ge "$apps" ]; do
  [ "$SECONDS" -lt "$deadline" ] || { echo "apps did not publish in time" >&2; exit 1; }
  sleep 0.5
done
hz=$(getconf CLK_TCK)
# ticks PID...: their CPU ticks so far (a process that ended counts 0).
ticks() { local total=0 pid t; for pid in "$@"; do
  t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0); total=$((total + t)); done; echo "$total"; }
# percent TICKS COUNT: TICKS over the window as % of a core, per COUNT processes.
percent() { awk -v t="$1" -v n="$2" -v hz="$hz" -v w="$window" 'BEGIN { printf "%.3f", t / hz / w * 100 / n }'; }
results=()
for round in $(seq "$rounds"); do
  before=$(ticks "${pids[@]}"); sleep "$window"; after=$(ticks "${pids[@]}")
  without=$((after - before))
  "${tmux[@]}" new-session -d -x 120 -y 60 "exec env XDG_RUNTIME_DIR=$work $bin attach"
  sleep 3  # every app connected and answered at least once
  viewer=$("${tmux[@]}" display-message -p '#{pane_pid}')
  [ "$(cat "/proc/$viewer/comm")" = opsdash ] || { echo "no opsdash in the pane" >&2; exit 1; }
  before=$(ticks "${pids[@]}"); own=$(ticks "$viewer"); sleep "$window"
  after=$(ticks "${pids[@]}"); own=$(( $(ticks "$viewer") - own ))
  with=$((after - before))
  "${tmux[@]}" send-keys q; sleep 1; "${tmux[@]}" kill-server 2>/dev/null || true
  line=$(printf '%d apps  without list %s%%/app  with list %s%%/app  delta %s%%/app  opsdash %s%% of a core' \
    "$apps" "$(percent "$without" "$apps")" "$(percent "$with" "$apps")" \
    "$(percent $((with - without)) "$apps")" "$(percent "$own" 1)")
  echo "round $round: $line"
  results+=("$(percent $((with - without)) "$apps") $(percent "$own" 1)")
done
middle=$(( (rounds + 1) / 2 ))
delta=$(printf '%s\n' "${results[@]}" | awk '{ print $1 }' | sort -g | sed -n "${middle}p")
own=$(printf '%s\n' "${results[@]}" | awk '{ print $2 }' | sort -g | sed -n "${middle}p")
echo "median of $rounds rounds: $apps apps, the list costs each app's publisher ${delta}% of a core; opsdash ${own}% of a core"
