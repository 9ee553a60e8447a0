#!/usr/bin/env bash
# A/B comparison of strata binaries on a local cluster (`strata playground
# --kv 3`), the method the issue notes call "hand-started playground,
# medians of N alternated rounds". sysbench's tables are loaded once and
# the data kept in DIR (loaded again when --tables or --size change);
# every round, for each binary in turn, the kept data is restored, the
# playground started, left idle, warmed up for 5 s, and each workload
# measured. This machine's speed drifts by tens of percent over
# minutes, so only binaries measured in the same run are compared.
#
#   ab.sh BIN... [--rounds N] [--workloads "oltp_update_non_index ..."]
#         [--time S] [--threads N] [--tables N] [--size N]
#         [--port-offset N] [--idle S] [--dir DIR]
#
# A binary may carry environment for its processes, VAR=V,VAR=V@BIN (e.g.
# GOMAXPROCS=2@./strata), and a config file, BIN#FILE or VAR=V@BIN#FILE:
# the playground's --config, with which it writes no one-machine settings,
# so FILE gives them (e.g. raftstore.raft-max-inflight-msgs = 1) when the
# comparison should keep them. The data is loaded with the first binary.
# Every run prints "round=R bin=BIN wl=WORKLOAD qps=Q cpu_us=C", C being
# the whole machine's busy CPU time per query in microseconds (sysbench's
# included; it varies less from round to round than qps); the last lines
# are each binary's median qps and cpu_us per workload. Exit status 1 if
# a run failed.
set -u
. "$(dirname "$0")/lib.sh"
rounds=3; time_s=15; threads=16; tables=4; size=100000; offset=500; idle=10
workloads="oltp_point_select oltp_update_non_index"
dir=${TMPDIR:-/tmp}/strata-ab
bins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2;; --workloads) workloads=$2; shift 2;;
    --time) time_s=$2; shift 2;; --threads) threads=$2; shift 2;;
    --tables) tables=$2; shift 2;; --size) size=$2; shift 2;;
    --port-offset) offset=$2; shift 2;; --idle) idle=$2; shift 2;;
    --dir) dir=$2; shift 2;;
    -*) echo "unknown option $1" >&2; exit 2;;
    *) bins+=("$1"); shift;;
  esac
done
[ ${#bins[@]} -gt 0 ] || { echo "usage: ab.sh BIN... [options]" >&2; exit 2; }
command -v sysbench >/dev/null && command -v mysql >/dev/null || { echo "needs sysbench and the mysql client" >&2; exit 2; }
port=$((4000 + offset))
sb=(--mysql-host=127.0.0.1 --mysql-port=$port --mysql-user=root --tables=$tables --table-size=$size --threads=$threads)
mkdir -p "$dir"
pg_pid=""

# start VARIANT: restore nothing, start the playground on $dir/data (tag ab).
start() {
  local v=${1%%#*} bin env="" cfg=()
  [ "$v" != "$1" ] && cfg=(--config "${1#*#}")
  bin=${v##*@}
  [ "$bin" != "$v" ] && env=${v%@*}
  port_free $port || exit 1
  env ${env//,/ } "$bin" playground --kv 3 --port-offset $offset --tag ab --data-dir "$dir/data" "${cfg[@]}" >"$dir/playground.log" 2>&1 &
  pg_pid=$!
  wait_ready $pg_pid grep -q "is running" "$dir/playground.log" && return 0
  echo "playground did not start; see $dir/playground.log" >&2; stop; exit 1
}

stop() {
  [ -n "$pg_pid" ] || return 0
  kill -TERM $pg_pid 2>/dev/null; wait $pg_pid 2>/dev/null; pg_pid=""
}
trap stop EXIT

# The kept data is reloaded when it was loaded with other --tables/--size.
params="tables=$tables size=$size"
if [ ! -d "$dir/seed" ] || [ "$(cat "$dir/seed.params" 2>/dev/null)" != "$params" ]; then
  rm -rf "$dir/data" "$dir/seed"
  start "${bins[0]}"
  mysql -h127.0.0.1 -P$port -uroot -e "CREATE DATABASE IF NOT EXISTS sbtest" &&
    sysbench /usr/share/sysbench/oltp_common.lua "${sb[@]}" prepare >"$dir/prepare.log" 2>&1 ||
    { echo "prepare failed; see $dir/prepare.log" >&2; exit 1; }
  stop
  cp -a "$dir/data/ab" "$dir/seed"
  echo "$params" >"$dir/seed.params"
fi

: >"$dir/runs"
status=0
for r in $(seq "$rounds"); do
  for v in "${bins[@]}"; do
    rm -rf "$dir/data/ab"; mkdir -p "$dir/data"; cp -a "$dir/seed" "$dir/data/ab"
    start "$v"
    sleep "$idle"
    for w in $workloads; do
      if m=$(measure_run "$w" "$time_s" "${sb[@]}"); then
        read -r q c _ <<<"$m"
      else
        q=failed; c=failed; status=1
      fi
      echo "round=$r bin=$v wl=$w qps=$q cpu_us=$c" | tee -a "$dir/runs"
    done
    stop
  done
done

echo "medians:"
for v in "${bins[@]}"; do
  for w in $workloads; do
    m=$(grep -F "bin=$v wl=$w qps=" "$dir/runs" | sed 's/.*qps=//; s/ .*//' | grep -v failed | median)
    c=$(grep -F "bin=$v wl=$w qps=" "$dir/runs" | sed 's/.*cpu_us=//' | grep -v failed | median)
    echo "  bin=$v wl=$w median_qps=${m:-none} median_cpu_us=${c:-none}"
  done
done
exit $status
