#!/usr/bin/env bash
# Where a statement's time goes, from the processes' own histograms: for
# every status address given (a SQL server's, a storage node's, PD's),
# over SECS seconds, the average of each strata_* histogram that moved
# (its _sum over its _count, in ms, and how many per second), and the
# rate of each strata_* counter that moved.
#
#   breakdown.sh SECS ADDR...
#   e.g. breakdown.sh 12 127.0.0.1:10580 127.0.0.1:20680 127.0.0.1:20681
#
# Run it while a benchmark runs (the playground prints every process's
# status address). On a SQL server, strata_tikvclient_tso_wait_seconds
# and strata_tikvclient_request_seconds{type="Get"|"Prewrite"} split a
# statement (strata_sql_query_duration_seconds) into its steps; on a
# raft leader, strata_raftstore_commit_log_duration_seconds is propose to
# commit, strata_raftstore_append_log_duration_seconds one raft-log write
# and its fsync, and strata_raftstore_log_entries_total over
# strata_raftstore_log_writes_total the entries per write.
set -u
[ $# -ge 2 ] || { echo "usage: breakdown.sh SECS ADDR..." >&2; exit 2; }
secs=$1; shift
# snap prints "addr metric value" for every address's strata_* samples
# (histogram buckets left out); it fails on an address it cannot read.
snap() {
  local a m
  for a in "$@"; do
    m=$(curl -sf "http://$a/metrics") || { echo "cannot read http://$a/metrics" >&2; return 1; }
    printf '%s\n' "$m" | awk -v a="$a" '/^strata_/ && !/_bucket[{ ]/ { print a, $1, $2 }'
  done
}
t0=$(date +%s.%N); before=$(snap "$@") || exit 1
sleep "$secs"
t1=$(date +%s.%N); after=$(snap "$@") || exit 1
printf '%s\n' "$before" "--" "$after" | awk -v t0="$t0" -v t1="$t1" '
  BEGIN { secs = t1 - t0 }
  $1 == "--" { after = 1; next }
  !after { v0[$1 " " $2] = $3; next }
  ($1 " " $2) in v0 {
    d = $3 - v0[$1 " " $2]
    if (d == 0) next
    name = $2
    if (name ~ /_sum([{]|$)/) { sub(/_sum[{]/, "{", name); sub(/_sum$/, "", name); sum[$1 " " name] = d; next }
    if (name ~ /_count([{]|$)/) { sub(/_count[{]/, "{", name); sub(/_count$/, "", name); cnt[$1 " " name] = d; next }
    if (name ~ /_total([{]|$)/) printf "%-21s %-72s %10.1f /s\n", $1, name, d / secs
  }
  END {
    for (k in cnt) {
      split(k, f, " ")
      printf "%-21s %-72s %10.3f ms %8.1f /s\n", f[1], f[2], 1000 * sum[k] / cnt[k], cnt[k] / secs
    }
  }
' | sort
