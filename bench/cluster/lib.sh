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
