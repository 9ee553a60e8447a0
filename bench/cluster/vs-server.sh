#!/usr/bin/env bash
# The cluster against the embedded server, as issue 4 measures it: each
# round starts a fresh `strata playground --kv 3` and runs
# ../shared/bench/sysbench-vs-mariadb.sh against it, then a fresh
# `strata server` and the same script. This machine's speed drifts by
# tens of percent over minutes, so it alternates the two for ROUNDS
# rounds and ends with the medians: per workload the cluster's and the
# server's qps, the cluster/MariaDB ratio, and the median of the rounds'
# cluster/server ratios.
#
#   vs-server.sh BIN [--rounds N] [--port-offset N] [--dir DIR]
#                [--script PATH] [-- options for the script]
#
# The playground listens on 4000+offset (default 4500), the server on
# 4202+offset with its status on 10202+offset. Each script run's output
# is kept as DIR/cluster-R.txt and DIR/server-R.txt. Exit status 1 if a
# run failed or had errors.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
rounds=3; offset=500; dir=${TMPDIR:-/tmp}/strata-vs-server
script=$here/../../../shared/bench/sysbench-vs-mariadb.sh
bin=""; extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2;; --port-offset) offset=$2; shift 2;;
    --dir) dir=$2; shift 2;; --script) script=$2; shift 2;;
    --) shift; extra=("$@"); break;;
    -*) echo "unknown option $1" >&2; exit 2;;
    *) bin=$1; shift;;
  esac
done
[ -n "$bin" ] || { echo "usage: vs-server.sh BIN [--rounds N] [--port-offset N] [--dir DIR] [--script PATH] [-- script options]" >&2; exit 2; }
[ -f "$script" ] || { echo "no $script (--script PATH)" >&2; exit 2; }
pg_port=$((4000 + offset)); srv_port=$((4202 + offset)); srv_status=$((10202 + offset))
port_free $pg_port && port_free $srv_port || exit 1
mkdir -p "$dir"
child=""
stop() {
  [ -n "$child" ] || return 0
  kill -TERM "$child" 2>/dev/null; wait "$child" 2>/dev/null; child=""
}
trap stop EXIT

status=0
for r in $(seq "$rounds"); do
  rm -rf "$dir/data"; mkdir -p "$dir/data"
  "$bin" playground --kv 3 --port-offset "$offset" --tag vs --data-dir "$dir/data" >"$dir/playground.log" 2>&1 &
  child=$!
  wait_ready $child grep -q "is running" "$dir/playground.log" ||
    { echo "playground did not start; see $dir/playground.log" >&2; exit 1; }
  bash "$script" --target "127.0.0.1:$pg_port" "${extra[@]}" >"$dir/cluster-$r.txt" 2>&1 || status=1
  stop

  rm -rf "$dir/data"; mkdir -p "$dir/data"
  "$bin" server --port "$srv_port" --status-port "$srv_status" --data-dir "$dir/data" >"$dir/server.log" 2>&1 &
  child=$!
  wait_ready $child mysql -h127.0.0.1 -P"$srv_port" -uroot -e 'select 1' >/dev/null 2>&1 ||
    { echo "server did not start; see $dir/server.log" >&2; exit 1; }
  bash "$script" --target "127.0.0.1:$srv_port" --pid "$child" "${extra[@]}" >"$dir/server-$r.txt" 2>&1 || status=1
  stop
  rm -rf "$dir/data"
  echo "round $r:"
  grep -h -E '^oltp_' "$dir/cluster-$r.txt" | awk '{print "  cluster", $1, "qps=" $3, "vs_mariadb=" $NF}'
  grep -h -E '^oltp_' "$dir/server-$r.txt" | awk '{print "  server ", $1, "qps=" $3, "vs_mariadb=" $NF}'
done

echo "medians over $rounds rounds:"
# col EXPR: the median over the rounds' $rows of an awk expression.
col() { echo "$rows" | awk "{print $1}" | median; }
printf '  %-22s %10s %10s %10s %14s\n' workload cluster_qps server_qps cluster/maria cluster/server
for w in $(grep -h -E '^oltp_' "$dir/cluster-1.txt" | awk '{print $1}'); do
  # per round with both figures: cluster qps, cluster/MariaDB, server qps
  rows=$(for r in $(seq "$rounds"); do
    c=$(awk -v w="$w" '$1 == w {print $3, $NF}' "$dir/cluster-$r.txt")
    s=$(awk -v w="$w" '$1 == w {print $3}' "$dir/server-$r.txt")
    [ -n "$c" ] && [ -n "$s" ] && echo "$c $s"
  done)
  [ -n "$rows" ] || continue
  printf '  %-22s %10.0f %10.0f %10.3f %14.3f\n' "$w" "$(col '$1')" "$(col '$3')" "$(col '$2')" "$(col '($3 > 0 ? $1 / $3 : 0)')"
done
exit $status
