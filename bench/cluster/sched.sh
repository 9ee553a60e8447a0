#!/usr/bin/env bash
# Where the CPU goes between processes, and how long they wait for it:
# for every process whose command line matches PATTERN, over SECS seconds,
# the CPU it used, the time its threads sat runnable in the kernel's run
# queue waiting for a CPU, and how many times its threads were scheduled
# in, and the read and write system calls it made (all per second).
#
#   sched.sh [SECS] [PATTERN]      (default 5 s, 'strata|sysbench')
#
# Run it while a benchmark runs. A process whose rqwait is close to or
# above its cpu spends as long waiting for a CPU as running: its requests'
# latency is then mostly queueing, and less CPU per request anywhere
# shortens it.
#
# cpu is the process's user and system time (/proc/PID/stat, which keeps
# the time of threads that have exited: a storage node's io_uring workers
# come and go). rqwait and slices come from each thread's
# /proc/PID/task/TID/schedstat, thread by thread: a thread that started
# during the window counts whole, one that exited during it is left out
# (the kernel keeps no process total of them), so they can undercount,
# never go negative. reads and writes are /proc/PID/io's syscr and syscw
# (read(2), write(2) and their vector forms, exited threads included;
# recv(2) and send(2) are not counted, so sysbench shows none): each
# message between two processes costs the sender a write and the
# receiver a read and usually a wakeup (a slice); on the 2-core test
# machine a loopback TCP round trip between two C processes (two
# messages) costs about 30 µs of CPU.
set -u
secs=${1:-5}; pattern=${2:-'strata|sysbench'}
hz=$(getconf CLK_TCK)
# snap prints "P pid utime+stime(ticks)" and "I pid syscr syscw" per
# process and "T pid tid run wait slices" per thread, one awk per process
# so that it takes little time of the window.
snap() {
  for p in $(pgrep -f "$pattern"); do
    tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null | grep -q 'sched\.sh' && continue
    awk -v p="$p" '
      FILENAME ~ /\/stat$/ { sub(/.*\) /, ""); print "P", p, $12 + $13; next }
      FILENAME ~ /\/io$/ { if ($1 == "syscr:") r = $2; if ($1 == "syscw:") print "I", p, r, $2; next }
      { n = split(FILENAME, f, "/"); print "T", p, f[n - 1], $1, $2, $3 }
    ' /proc/"$p"/stat /proc/"$p"/io /proc/"$p"/task/*/schedstat 2>/dev/null
  done
}
t0=$(date +%s.%N); a=$(snap); sleep "$secs"; t1=$(date +%s.%N); b=$(snap)
printf '%s\n' "$a" "--" "$b" | awk -v t0="$t0" -v t1="$t1" -v hz="$hz" '
  BEGIN { secs = t1 - t0 }
  $1 == "--" { after = 1; next }
  !after && $1 == "P" { cpu0[$2] = $3; next }
  !after && $1 == "I" { r0[$2] = $3; w0[$2] = $4; next }
  !after && $1 == "T" { wait0[$3] = $5; n0[$3] = $6; next }
  after && $1 == "P" { if ($2 in cpu0) { pids[$2] = 1; cpu[$2] = $3 - cpu0[$2] } next }
  after && $1 == "I" { if ($2 in r0) { rd[$2] = $3 - r0[$2]; wr[$2] = $4 - w0[$2] } next }
  after && $1 == "T" { wait[$2] += $5 - wait0[$3]; n[$2] += $6 - n0[$3] }
  END { for (p in pids) printf "%s %d %d %d %d %d\n", p, cpu[p] * 1000 / hz / secs, wait[p] / 1e6 / secs, n[p] / secs, rd[p] / secs, wr[p] / secs }
' | sort -n | while read -r p cpu wait slices reads writes; do
  name=$(tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null | awk '{n = $1; m = $2; sub(".*/", "", n); sub(".*/", "", m); print substr(n " " m, 1, 22)}')
  printf "%-7s %-22s cpu=%5d ms/s  rqwait=%5d ms/s  slices=%6d /s  reads=%6d /s  writes=%6d /s\n" "$p" "${name:-?}" "$cpu" "$wait" "$slices" "$reads" "$writes"
done
