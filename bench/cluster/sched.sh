#!/usr/bin/env bash
# Where the CPU goes between processes, and how long they wait for it:
# for every process whose command line matches PATTERN, over SECS seconds,
# the CPU it used, the time its threads sat runnable in the kernel's run
# queue waiting for a CPU, and how many times its threads were scheduled
# in (all per second, from /proc/PID/task/*/schedstat).
#
#   sched.sh [SECS] [PATTERN]      (default 5 s, 'strata|sysbench')
#
# Run it while a benchmark runs. A process whose rqwait is close to or
# above its cpu spends as long waiting for a CPU as running: its requests'
# latency is then mostly queueing, and less CPU per request anywhere
# shortens it.
set -u
secs=${1:-5}; pattern=${2:-'strata|sysbench'}
snap() {
  for p in $(pgrep -f "$pattern"); do
    tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null | grep -q 'sched\.sh' && continue
    awk -v p="$p" '{r += $1; w += $2; n += $3} END {print p, r, w, n}' /proc/"$p"/task/*/schedstat 2>/dev/null
  done | sort
}
a=$(snap); sleep "$secs"; b=$(snap)
join <(echo "$a") <(echo "$b") | while read -r p r1 w1 n1 r2 w2 n2; do
  name=$(tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null | awk '{n = $1; m = $2; sub(".*/", "", n); sub(".*/", "", m); print substr(n " " m, 1, 22)}')
  printf "%-7s %-22s cpu=%5d ms/s  rqwait=%5d ms/s  slices=%6d /s\n" "$p" "${name:-?}" \
    $(((r2 - r1) / 1000000 / secs)) $(((w2 - w1) / 1000000 / secs)) $(((n2 - n1) / secs))
done
