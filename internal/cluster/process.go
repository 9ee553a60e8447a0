package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// ErrNotReady is returned (wrapped) when a process did not print its
// readiness line in time.
var ErrNotReady = errors.New("process not ready")

// ExitError is a process that exited while it was expected to run: before
// it was ready, or on its own later.
type ExitError struct {
	Name string
	PID  int
	// Status is how it ended: "exit status 1", "signal: killed", ...
	Status string
	// LogFile is its log, Tail the last lines of it.
	LogFile string
	Tail    []string
}

func (e *ExitError) Error() string {
	return fmt.Sprintf("%s (pid %d) exited: %s (log %s)", e.Name, e.PID, e.Status, e.LogFile)
}

// logPoll is how often a log file is read for new lines while waiting for
// a readiness line.
const logPoll = 20 * time.Millisecond

// Process is one running child: the strata binary started for an
// Instance, its output appended to the instance's log file.
type Process struct {
	Inst Instance
	cmd  *exec.Cmd
	// logStart is the log's size when the process started: readiness is
	// looked for after it (a reused folder keeps older runs' logs).
	logStart int64
	done     chan struct{}
	status   string // how it ended, valid after done
}

// StartProcess starts bin with args for in: its working directory is
// in.Dir, its environment ours plus env, stdin is empty, stdout and
// stderr append to in.LogFile().
func StartProcess(bin string, in Instance, args, env []string) (*Process, error) {
	if err := os.MkdirAll(in.DataDir(), 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name(), err)
	}
	f, err := os.OpenFile(in.LogFile(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: open log: %w", in.Name(), err)
	}
	defer f.Close() // the child has its own copy
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: open log: %w", in.Name(), err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = in.Dir
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = childAttr()
	if err := startCmd(cmd); err != nil {
		return nil, fmt.Errorf("%s: start %s: %w", in.Name(), bin, err)
	}
	p := &Process{Inst: in, cmd: cmd, logStart: st.Size(), done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		if err == nil {
			p.status = "exit status 0"
		} else {
			p.status = strings.TrimPrefix(err.Error(), "exec: ")
		}
		close(p.done)
	}()
	return p, nil
}

// PID is the child's process id.
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Done is closed once the process has exited (and was reaped).
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited reports whether the process has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// exitError describes the exited process; call after Done.
func (p *Process) exitError() *ExitError {
	return &ExitError{Name: p.Inst.Name(), PID: p.PID(), Status: p.status, LogFile: p.Inst.LogFile(), Tail: p.LogTail(20)}
}

// WaitReady reads the process's log until a line matches re and returns
// its submatches. It fails with an *ExitError if the process exits first,
// and with ErrNotReady when ctx ends.
func (p *Process) WaitReady(ctx context.Context, re *regexp.Regexp) ([]string, error) {
	f, err := os.Open(p.Inst.LogFile())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Inst.Name(), err)
	}
	defer f.Close()
	if _, err := f.Seek(p.logStart, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Inst.Name(), err)
	}
	var pending []byte
	buf := make([]byte, 64<<10)
	// scan consumes the complete lines read so far.
	scan := func() []string {
		for {
			n, _ := f.Read(buf)
			if n == 0 {
				break
			}
			pending = append(pending, buf[:n]...)
		}
		for {
			i := bytes.IndexByte(pending, '\n')
			if i < 0 {
				return nil
			}
			line := string(pending[:i])
			pending = pending[i+1:]
			if m := re.FindStringSubmatch(line); m != nil {
				return m
			}
		}
	}
	tick := time.NewTicker(logPoll)
	defer tick.Stop()
	for {
		exited := p.Exited() // before the read, so its last lines are seen
		if m := scan(); m != nil {
			return m, nil
		}
		if exited {
			return nil, p.exitError()
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %s (pid %d) printed no %q: %v (log %s)",
				ErrNotReady, p.Inst.Name(), p.PID(), re.String(), context.Cause(ctx), p.Inst.LogFile())
		case <-tick.C:
		case <-p.done:
		}
	}
}

// LogTail returns up to n last lines of the process's log.
func (p *Process) LogTail(n int) []string { return tailFile(p.Inst.LogFile(), n) }

func tailFile(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	const window = 32 << 10
	st, err := f.Stat()
	if err != nil {
		return nil
	}
	off := max(st.Size()-window, 0)
	b := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if off > 0 && len(lines) > 1 {
		lines = lines[1:] // the first one is cut
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines
}

// stopProcesses sends SIGTERM to every process, waits until they exit or
// timeout passes (or force is closed), then kills the rest with SIGKILL
// and waits for them. It returns those it had to kill.
func stopProcesses(procs []*Process, timeout time.Duration, force <-chan struct{}) (killed []*Process) {
	for _, p := range procs {
		if !p.Exited() {
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
wait:
	for _, p := range procs {
		select {
		case <-p.done:
		case <-deadline.C:
			break wait
		case <-force:
			break wait
		}
	}
	for _, p := range procs {
		if !p.Exited() {
			_ = p.cmd.Process.Signal(syscall.SIGKILL)
			killed = append(killed, p)
		}
		<-p.done
	}
	return killed
}
