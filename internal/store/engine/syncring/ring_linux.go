//go:build linux

package syncring

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The io_uring system calls have these numbers on every architecture.
const (
	sysIOUringSetup    = 425
	sysIOUringEnter    = 426
	sysIOUringRegister = 427
)

// From include/uapi/linux/io_uring.h.
const (
	opFsync             = 3          // IORING_OP_FSYNC
	fsyncDatasync       = 1          // IORING_FSYNC_DATASYNC
	registerEventfd     = 4          // IORING_REGISTER_EVENTFD
	featSingleMmap      = 1          // IORING_FEAT_SINGLE_MMAP
	offSQRing           = 0          // IORING_OFF_SQ_RING
	offSQEs             = 0x10000000 // IORING_OFF_SQES
	sqeSize             = 64
	cqeSize             = 16
	defaultRingEntries  = 64
	maxRingEntriesLimit = 4096
)

// params is struct io_uring_params.
type params struct {
	sqEntries, cqEntries, flags, sqThreadCPU, sqThreadIdle, features, wqFd uint32
	resv                                                                   [3]uint32
	sqOff                                                                  sqringOffsets
	cqOff                                                                  cqringOffsets
}

// sqringOffsets is struct io_sqring_offsets.
type sqringOffsets struct {
	head, tail, ringMask, ringEntries, flags, dropped, array, resv1 uint32
	userAddr                                                        uint64
}

// cqringOffsets is struct io_cqring_offsets.
type cqringOffsets struct {
	head, tail, ringMask, ringEntries, overflow, cqes, flags, resv1 uint32
	userAddr                                                        uint64
}

// sqe is struct io_uring_sqe, as an fsync uses it.
type sqe struct {
	opcode      uint8
	flags       uint8
	ioprio      uint16
	fd          int32
	off         uint64
	addr        uint64
	len         uint32
	opFlags     uint32 // fsync_flags
	userData    uint64
	bufIndex    uint16
	personality uint16
	spliceFdIn  int32
	addr3       uint64
	pad         uint64
}

// cqe is struct io_uring_cqe.
type cqe struct {
	userData uint64
	res      int32
	flags    uint32
}

// Ring runs fsyncs through one io_uring. Its methods are safe for
// concurrent use.
//
// Lock order: mu only; never held while waiting for a completion.
type Ring struct {
	fd      int
	ringMem []byte // the SQ and CQ rings (one mapping)
	sqeMem  []byte
	ev      *os.File // the eventfd completions signal

	sqHead, sqTail, cqHead, cqTail *uint32
	sqMask, cqMask, entries        uint32
	sqArray                        []uint32
	sqes                           []sqe
	cqes                           []cqe

	submitted, fallbacks atomic.Uint64
	reaped               chan struct{} // closed when the reaper ends

	mu      sync.Mutex
	nextID  uint64
	waiters map[uint64]chan int32
	closed  bool
}

// New sets up a ring with room for entries fsyncs in flight (0: 64). It
// fails where io_uring is missing or refused.
func New(entries uint32) (*Ring, error) {
	if entries == 0 {
		entries = defaultRingEntries
	}
	if entries > maxRingEntriesLimit {
		return nil, fmt.Errorf("syncring: %d entries exceed %d", entries, maxRingEntriesLimit)
	}
	var p params
	fd, _, errno := unix.Syscall(sysIOUringSetup, uintptr(entries), uintptr(unsafe.Pointer(&p)), 0)
	if errno != 0 {
		return nil, fmt.Errorf("syncring: io_uring_setup: %w", errno)
	}
	r := &Ring{fd: int(fd), waiters: map[uint64]chan int32{}, reaped: make(chan struct{})}
	ok := false
	defer func() {
		if !ok {
			r.release()
		}
	}()
	if p.features&featSingleMmap == 0 {
		return nil, errors.New("syncring: kernel lacks IORING_FEAT_SINGLE_MMAP")
	}
	size := max(p.sqOff.array+p.sqEntries*4, p.cqOff.cqes+p.cqEntries*cqeSize)
	mem, err := unix.Mmap(r.fd, offSQRing, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("syncring: mmap rings: %w", err)
	}
	r.ringMem = mem
	sqeMem, err := unix.Mmap(r.fd, offSQEs, int(p.sqEntries*sqeSize), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("syncring: mmap sqes: %w", err)
	}
	r.sqeMem = sqeMem
	u32 := func(off uint32) *uint32 { return (*uint32)(unsafe.Pointer(&mem[off])) }
	r.sqHead, r.sqTail, r.sqMask = u32(p.sqOff.head), u32(p.sqOff.tail), *u32(p.sqOff.ringMask)
	r.cqHead, r.cqTail, r.cqMask = u32(p.cqOff.head), u32(p.cqOff.tail), *u32(p.cqOff.ringMask)
	r.sqArray = unsafe.Slice(u32(p.sqOff.array), p.sqEntries)
	r.sqes = unsafe.Slice((*sqe)(unsafe.Pointer(&sqeMem[0])), p.sqEntries)
	r.cqes = unsafe.Slice((*cqe)(unsafe.Pointer(&mem[p.cqOff.cqes])), p.cqEntries)
	// In flight at most: the SQ size, which also keeps the CQ (twice as
	// large) from overflowing.
	r.entries = min(p.sqEntries, p.cqEntries)

	efd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("syncring: eventfd: %w", err)
	}
	efd32 := int32(efd)
	if _, _, errno := unix.Syscall6(sysIOUringRegister, uintptr(r.fd), registerEventfd, uintptr(unsafe.Pointer(&efd32)), 1, 0, 0); errno != 0 {
		unix.Close(efd)
		return nil, fmt.Errorf("syncring: register eventfd: %w", errno)
	}
	// Non-blocking, so os.File reads it through the network poller: the
	// reaper parks instead of holding a P.
	r.ev = os.NewFile(uintptr(efd), "io_uring-eventfd")
	ok = true
	go r.reap()
	return r, nil
}

// release unmaps and closes what New made.
func (r *Ring) release() {
	if r.sqeMem != nil {
		_ = unix.Munmap(r.sqeMem)
	}
	if r.ringMem != nil {
		_ = unix.Munmap(r.ringMem)
	}
	_ = unix.Close(r.fd)
}

// Sync makes fd's data and metadata durable (fsync(2)); with datasync,
// only what reading the data back needs (fdatasync(2)). The calling
// goroutine parks until the kernel is done.
func (r *Ring) Sync(fd uintptr, datasync bool) error {
	done := make(chan int32, 1)
	if !r.submit(fd, datasync, done) {
		r.fallbacks.Add(1)
		return directSync(fd, datasync)
	}
	res := <-done
	switch {
	case res == 0:
		return nil
	case syscall.Errno(-res) == unix.EINVAL || syscall.Errno(-res) == unix.EOPNOTSUPP:
		// The ring refused the operation itself (a kernel or a security
		// policy without it): the system call decides, so an fsync the
		// kernel can do is never failed by the ring.
		r.fallbacks.Add(1)
		return directSync(fd, datasync)
	default:
		return &os.SyscallError{Syscall: syncName(datasync), Err: syscall.Errno(-res)}
	}
}

func syncName(datasync bool) string {
	if datasync {
		return "fdatasync"
	}
	return "fsync"
}

// directSync is the plain system call.
func directSync(fd uintptr, datasync bool) error {
	var err error
	if datasync {
		err = unix.Fdatasync(int(fd))
	} else {
		err = unix.Fsync(int(fd))
	}
	if err != nil {
		return &os.SyscallError{Syscall: syncName(datasync), Err: err}
	}
	return nil
}

// submit queues an fsync of fd whose result goes to done. It reports
// false when the ring did not take it.
func (r *Ring) submit(fd uintptr, datasync bool, done chan int32) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	// Every entry not yet completed has a waiter, so below the bound the
	// submission queue has a free slot too.
	if r.closed || uint32(len(r.waiters)) >= r.entries {
		return false
	}
	tail := atomic.LoadUint32(r.sqTail)
	r.nextID++
	id := r.nextID
	idx := tail & r.sqMask
	s := sqe{opcode: opFsync, fd: int32(fd), userData: id}
	if datasync {
		s.opFlags = fsyncDatasync
	}
	r.sqes[idx] = s
	r.sqArray[idx] = idx
	r.waiters[id] = done
	atomic.StoreUint32(r.sqTail, tail+1)
	for {
		n, _, errno := unix.Syscall6(sysIOUringEnter, uintptr(r.fd), 1, 0, 0, 0, 0)
		if errno == unix.EINTR {
			continue
		}
		if errno == 0 && n == 1 {
			r.submitted.Add(1)
			return true
		}
		break
	}
	// Not consumed (only io_uring_enter consumes, and only we call it):
	// take the entry back.
	if atomic.LoadUint32(r.sqHead) == tail {
		atomic.StoreUint32(r.sqTail, tail)
		delete(r.waiters, id)
		return false
	}
	// Consumed after all: its completion will come.
	r.submitted.Add(1)
	return true
}

// reap waits for completions and hands them to their waiters, until the
// eventfd is closed.
func (r *Ring) reap() {
	defer close(r.reaped)
	var buf [8]byte
	for {
		if _, err := r.ev.Read(buf[:]); err != nil {
			if errors.Is(err, os.ErrClosed) {
				return
			}
			continue // EINTR and the like: read again
		}
		r.drain()
	}
}

// drain takes every completion posted so far. Only the reaper calls it.
func (r *Ring) drain() {
	head := atomic.LoadUint32(r.cqHead)
	for {
		tail := atomic.LoadUint32(r.cqTail)
		if head == tail {
			return
		}
		for ; head != tail; head++ {
			c := r.cqes[head&r.cqMask]
			r.mu.Lock()
			done := r.waiters[c.userData]
			delete(r.waiters, c.userData)
			r.mu.Unlock()
			if done != nil {
				done <- c.res
			}
		}
		atomic.StoreUint32(r.cqHead, head)
	}
}

// Stats reports how many fsyncs went through the ring and how many the
// plain system call ran instead (the ring full or closed, or refusing the
// operation with EINVAL or EOPNOTSUPP; such a sync counts in both).
func (r *Ring) Stats() (submitted, fallbacks uint64) {
	return r.submitted.Load(), r.fallbacks.Load()
}

// Close stops the ring once no Sync is in flight; later Syncs use the
// plain system call.
func (r *Ring) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	busy := len(r.waiters) > 0
	r.mu.Unlock()
	if busy {
		// The kernel may still write to their completion entries: keep
		// the ring mapped (a leak only in this unexpected case).
		return errors.New("syncring: close with fsyncs in flight")
	}
	err := r.ev.Close()
	<-r.reaped
	r.release()
	return err
}
