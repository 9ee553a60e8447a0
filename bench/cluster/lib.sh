# Shared by the bench/cluster scripts (sourced, not run).

# port_free PORT: fails, saying why, when something listens on PORT (a
# leftover process would spoil a comparison).
port_free() {
  if ss -ltn "sport = :$1" | grep -q LISTEN; then
    echo "port $1 is in use: a leftover process would spoil the comparison" >&2
    return 1
  fi
}

# wait_ready PID CHECK...: runs CHECK once a second, for up to 120 s,
# until it succeeds; fails at once if process PID has exited.
wait_ready() {
  local pid=$1; shift
  for _ in $(seq 120); do
    "$@" && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 1
  done
  return 1
}

# median: the median of the numbers on standard input, one per line
# (nothing when there are none).
median() {
  sort -g | awk '{a[NR] = $1} END {if (NR) print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2)}'
}

# cpu_ticks: the machine's busy clock ticks since boot, from /proc/stat's
# cpu line (idle and iowait are not busy).
cpu_ticks() {
  awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}

# cpu_us_per: CPU microseconds of the whole machine per unit of work,
# from two cpu_ticks readings and a count: cpu_us_per B0 B1 N (nothing
# when N is missing or 0).
cpu_us_per() {
  local hz; hz=$(getconf CLK_TCK)
  echo "$1 $2 $3" | awk -v hz="$hz" '$3 > 0 { printf "%.1f\n", ($2 - $1) * 1e6 / hz / $3 }'
}

# measure_run WORKLOAD SECS SYSBENCH_ARGS...: a 5 s warm-up of the sysbench
# workload, then a SECS-second run with the machine's busy ticks read
# around it. Prints "QPS CPU_US BUSY": queries per second, the whole
# machine's busy CPU microseconds per query (every process's, sysbench's
# included) and the busy share of all CPUs in percent. When the run gives
# no query count it prints its first error line to stderr and fails.
measure_run() {
  local w=$1 secs=$2; shift 2
  local out n q t0 t1 s0 s1 c
  sysbench /usr/share/sysbench/"$w".lua "$@" --time=5 run >/dev/null 2>&1
  s0=$(date +%s.%N); t0=$(cpu_ticks)
  out=$(sysbench /usr/share/sysbench/"$w".lua "$@" --time="$secs" run 2>&1)
  t1=$(cpu_ticks); s1=$(date +%s.%N)
  read -r n q < <(echo "$out" | awk '/queries:/ {gsub(/\(/, "", $3); print $2, $3}')
  c=$(cpu_us_per "$t0" "$t1" "$n")
  if [ -z "$q" ] || [ -z "$c" ]; then
    echo "$w: $(echo "$out" | grep -m1 -E 'FATAL|error' || echo 'no query count')" >&2
    return 1
  fi
  echo "$q $c $t0 $t1 $s0 $s1" | awk -v hz="$(getconf CLK_TCK)" -v n="$(nproc)" \
    '{ printf "%s %s %.0f\n", $1, $2, ($4 - $3) / hz / ($6 - $5) / n * 100 }'
}
