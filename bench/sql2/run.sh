#!/usr/bin/env bash
# Times the queries of queries.sql on a MySQL-protocol endpoint (Strata)
# and on a local MariaDB, alternating which goes first, and prints each
# query's median time and the ratio Strata/MariaDB (lower is better; the
# issue's aim is 2.0 or less). Unless --skip-prepare, sysbench loads its
# 4 x 100k tables into Strata and MariaDB gets a dump of them; the
# answers of both must agree (exit status 1 otherwise).
#
#   run.sh [--target HOST:PORT] [--runs N] [--tables N] [--size N] [--skip-prepare]
set -u
target=127.0.0.1:4000; runs=5; tables=4; size=100000; prepare=1
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target=$2; shift 2;; --runs) runs=$2; shift 2;;
    --tables) tables=$2; shift 2;; --size) size=$2; shift 2;;
    --skip-prepare) prepare=0; shift;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
dir=$(cd "$(dirname "$0")" && pwd)
host=${target%:*}; port=${target##*:}
if ! mysql -uroot -e "select 1" >/dev/null 2>&1; then
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
  /usr/sbin/mariadbd --user=mysql >"${TMPDIR:-/tmp}/sql2-bench.mariadb.log" 2>&1 &
  for _ in $(seq 60); do mysql -uroot -e "select 1" >/dev/null 2>&1 && break; sleep 1; done
fi
S=(mysql -h"$host" -P"$port" -uroot sbtest)
M=(mysql -uroot sbtest)
if [ $prepare = 1 ]; then
  # sysbench fills Strata; MariaDB gets a dump of the same rows, so both
  # answer the same data.
  common="--tables=$tables --table-size=$size --mysql-db=sbtest --db-driver=mysql"
  mysql -h"$host" -P"$port" -uroot -e "DROP DATABASE IF EXISTS sbtest; CREATE DATABASE sbtest" || exit 1
  sysbench oltp_common $common --mysql-host="$host" --mysql-port="$port" --mysql-user=root prepare >/dev/null || exit 1
  mysql -uroot -e "DROP DATABASE IF EXISTS sbtest; CREATE DATABASE sbtest" || exit 1
  mariadb-dump -h"$host" -P"$port" -uroot --skip-lock-tables --skip-add-locks --skip-disable-keys --no-tablespaces sbtest |
    sed 's/ COLLATE=utf8mb4_bin//; s/ COLLATE utf8mb4_bin//g' | mysql -uroot sbtest || exit 1
  # Both sides analyze their tables (Strata's planner reads the statistics).
  an=$(for i in $(seq "$tables"); do echo "ANALYZE TABLE sbtest$i;"; done)
  { "${S[@]}" -e "$an" >/dev/null && "${M[@]}" -e "$an" >/dev/null; } || exit 1
fi
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
printf "%-8s %12s %12s %8s\n" query strata_ms maria_ms ratio
name=""; worst=0; bad=0
while IFS= read -r line; do
  case "$line" in
    "-- "*:*) name=${line#-- }; name=${name%%:*}; continue;;
    --*|"") continue;;
  esac
  ts=(); tm=()
  s_out=$("${S[@]}" -N -e "$line" 2>&1); m_out=$("${M[@]}" -N -e "$line" 2>&1)
  if [ "$s_out" != "$m_out" ]; then
    echo "$name: answers differ" >&2; echo "strata: $s_out" >&2; echo "mariadb: $m_out" >&2; bad=1
  fi
  for r in $(seq "$runs"); do
    for side in S M; do
      [ $((r % 2)) = 0 ] && { [ $side = S ] && side=M || side=S; }
      t0=$(now)
      if [ $side = S ]; then "${S[@]}" -e "$line" >/dev/null; else "${M[@]}" -e "$line" >/dev/null; fi
      t1=$(now)
      ms=$(( (t1 - t0) / 1000000 ))
      if [ $side = S ]; then ts+=("$ms"); else tm+=("$ms"); fi
    done
  done
  sm=$(printf "%s\n" "${ts[@]}" | median); mm=$(printf "%s\n" "${tm[@]}" | median)
  ratio=$(awk -v a="$sm" -v b="$mm" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  printf "%-8s %12s %12s %8s\n" "$name" "$sm" "$mm" "$ratio"
done < "$dir/queries.sql"
exit $bad
