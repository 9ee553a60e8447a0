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
