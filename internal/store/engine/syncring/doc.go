// Package syncring makes a file's fsync park its goroutine instead of
// holding the Go scheduler.
//
// # Why
//
// A goroutine in a system call keeps its P (the scheduler's right to run
// Go code) until the call returns or sysmon takes the P away, which it
// does only after one of its polls, 20 µs to 10 ms apart. strata runs its
// processes with few Ps (a playground gives each one), and keeps sysmon
// out of its deep sleep (cmd/strata/godebug.go), so under load sysmon
// polls every 10 ms and an fdatasync of 0.2-0.5 ms holds the process's
// only P for its whole length: on a raft leader under sysbench writes,
// 15-18% of the wall time, during which no request, raft message or
// response of that process moves.
//
// # How
//
// A Ring is one io_uring (Linux 5.4+) with an eventfd for completions.
// Sync queues an IORING_OP_FSYNC (with IORING_FSYNC_DATASYNC for
// SyncData) and waits on a channel; the kernel runs the fsync on its own
// worker thread; one reaper goroutine reads the eventfd through Go's
// network poller (so it too parks, holding no P), takes the completions
// and wakes their waiters. The calling goroutine therefore parks for the
// fsync like for a network read, and its P runs other goroutines.
//
// Where io_uring is missing or refused (an old kernel,
// kernel.io_uring_disabled, a seccomp filter), New fails and FS returns
// its file system unchanged: fsync is then the plain system call.
//
// # Invariants
//
//   - A Sync returns only after its completion arrived: the file and its
//     descriptor stay open and valid for the kernel's use while it runs.
//   - Submissions are serialised by Ring.mu; the reaper is the only
//     reader of the completion queue. The rings' head and tail are shared
//     with the kernel and read and written with atomics.
//   - A submission the ring cannot take (queue full, io_uring_enter
//     failing), and one it completes with EINVAL or EOPNOTSUPP (the
//     operation refused), falls back to the plain system call: an fsync
//     is never lost or failed by the ring, only slower.
package syncring
