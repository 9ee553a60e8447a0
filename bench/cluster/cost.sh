#!/usr/bin/env bash
# What a query costs the whole machine, and the rate that cost allows:
# against a running server whose sysbench tables are loaded (a
# playground's SQL server, `strata server`, MariaDB), for each workload,
# a 5 s warm-up and then a timed sysbench run, with the machine's busy
# CPU time read from /proc/stat around it. Prints per workload
#
#   WORKLOAD qps=Q cpu_us=C busy=B% ceiling_qps=X
#
# C is the machine's busy CPU time per query in microseconds (every
# process's: sysbench's, and a cluster's PD, storage nodes and SQL
# servers), B the share of all CPUs that was busy, and X = CPUs × 1e6 / C,
# the rate at which queries of this cost would keep every CPU busy: no
# target can run faster than its X on this machine whatever it waits on,
# so comparing one target's X with another's qps says whether a ratio
# between them is reachable by waiting less or only by costing less.
#
#   cost.sh --target HOST:PORT [--workloads "oltp_point_select ..."]
#           [--time S] [--threads N] [--tables N] [--size N]
#
# Run nothing else meanwhile: the figures are the machine's, not the
# target's.
set -u
. "$(dirname "$0")/lib.sh"
target=; time_s=15; threads=16; tables=4; size=100000
workloads="oltp_point_select oltp_read_only oltp_update_non_index oltp_update_index oltp_read_write oltp_insert"
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target=$2; shift 2;; --workloads) workloads=$2; shift 2;;
    --time) time_s=$2; shift 2;; --threads) threads=$2; shift 2;;
    --tables) tables=$2; shift 2;; --size) size=$2; shift 2;;
    *) echo "unknown argument $1" >&2; exit 2;;
  esac
done
[ -n "$target" ] || { echo "usage: cost.sh --target HOST:PORT [--workloads \"...\"] [--time S] [--threads N] [--tables N] [--size N]" >&2; exit 2; }
command -v sysbench >/dev/null || { echo "needs sysbench" >&2; exit 2; }
host=${target%:*}; port=${target##*:}
sb=(--mysql-host="$host" --mysql-port="$port" --mysql-user=root --tables="$tables"
  --table-size="$size" --threads="$threads")
ncpu=$(nproc)
status=0
for w in $workloads; do
  if ! m=$(measure_run "$w" "$time_s" "${sb[@]}"); then
    echo "$w failed"
    status=1
    continue
  fi
  read -r q c busy <<<"$m"
  echo "$w qps=$q cpu_us=$c busy=$busy% ceiling_qps=$(awk -v n="$ncpu" -v c="$c" 'BEGIN { printf "%.0f", n * 1e6 / c }')"
done
exit $status
