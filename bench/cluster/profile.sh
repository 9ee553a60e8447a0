#!/usr/bin/env bash
# Where each process's CPU goes, from Go's CPU profiler: for every status
# address given (a SQL server's, a storage node's, PD's), one CPU profile
# of SECS seconds, all taken over the same window, kept as
# DIR/cpu-ADDR.pprof; then, per address, the CPU it used (the profile's
# samples, in % of one core) and the goroutines the time went to (the
# function each sample's stack started in: gRPC's readers and writers,
# the raft loop, the apply workers, the request workers, a SQL
# connection).
#
#   profile.sh SECS ADDR... [--dir DIR] [--bin STRATA]
#   e.g. profile.sh 20 127.0.0.1:10580 127.0.0.1:20680 127.0.0.1:20682
#
# Run it while a benchmark runs (the playground prints every process's
# status address). --bin names the binary the processes run, for
# symbols (default: the strata on PATH); read a profile further with
# `go tool pprof -top -cum STRATA DIR/cpu-ADDR.pprof`.
set -u
[ $# -ge 2 ] || { echo "usage: profile.sh SECS ADDR... [--dir DIR] [--bin STRATA]" >&2; exit 2; }
secs=$1; shift
dir=${TMPDIR:-/tmp}/strata-profile; bin=$(command -v strata || true); addrs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2;; --bin) bin=$2; shift 2;;
    -*) echo "unknown option $1" >&2; exit 2;;
    *) addrs+=("$1"); shift;;
  esac
done
[ ${#addrs[@]} -gt 0 ] || { echo "no status address given" >&2; exit 2; }
[ -n "$bin" ] || { echo "no strata binary: give --bin" >&2; exit 2; }
mkdir -p "$dir"
pids=()
for a in "${addrs[@]}"; do
  curl -sf -o "$dir/cpu-$a.pprof" "http://$a/debug/pprof/profile?seconds=$secs" &
  pids+=($!)
done
status=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "cannot profile http://${addrs[$i]}" >&2; status=1; }
done
for a in "${addrs[@]}"; do
  f=$dir/cpu-$a.pprof
  [ -s "$f" ] || continue
  # -traces prints each sampled stack, innermost first, after its time;
  # the last frame of a stack is the goroutine's start.
  go tool pprof -traces "$bin" "$f" 2>/dev/null | awk -v a="$a" -v secs="$secs" '
    function ms(s) { if (s ~ /ms$/) { sub(/ms$/, "", s); return s + 0 } if (s ~ /us$/) { sub(/us$/, "", s); return s / 1000 } sub(/s$/, "", s); return s * 1000 }
    /^-----/ { if (top != "") { t[top] += v; all += v } top = ""; v = 0; next }
    /^ +[0-9.]+(m|u)?s +/ { v = ms($1); top = $2; next }
    /^ +[^ ]/ && v > 0 { top = $1 }
    END {
      if (top != "") { t[top] += v; all += v }
      printf "%s: %.0f%% of a core\n", a, all / (10 * secs)
      for (k in t) printf "  %6.1f%%  %s\n", t[k] / (10 * secs), k | "sort -rn | head -12"
      close("sort -rn | head -12")
    }'
done
exit $status
