package testproc

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Proc is one running process: strata, or another program a test runs
// beside it (StartProgram).
type Proc struct {
	t    testing.TB
	cmd  *exec.Cmd
	name string // the program, for messages
	args []string

	mu     sync.Mutex
	output bytes.Buffer
	lines  chan string // every output line, for WaitLine
	done   chan struct{}
	err    error // exit status, valid after done
}

// Start runs `strata args...` and returns once it is started. Output goes to
// the test log when the test fails.
func Start(t testing.TB, args ...string) *Proc {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	return start(t, bin, "strata", args)
}

// StartProgram runs the program at path with args, as Start runs strata:
// for a server a test compares strata with, say.
func StartProgram(t testing.TB, path string, args ...string) *Proc {
	t.Helper()
	return start(t, path, filepath.Base(path), args)
}

func start(t testing.TB, path, name string, args []string) *Proc {
	t.Helper()
	p := &Proc{t: t, name: name, args: args, lines: make(chan string, 4096), done: make(chan struct{})}
	p.cmd = exec.Command(path, args...)
	pr, pw := io.Pipe()
	p.cmd.Stdout = pw
	p.cmd.Stderr = pw
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s %v: %v", name, args, err)
	}
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.output.WriteString(line + "\n")
			p.mu.Unlock()
			select {
			case p.lines <- line:
			default: // nobody is waiting for lines this old
			}
		}
	}()
	go func() {
		p.err = p.cmd.Wait()
		pw.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.Kill()
		if t.Failed() {
			t.Logf("output of %s %v:\n%s", name, args, p.Output())
		}
	})
	return p
}

// WaitLine waits until the process prints a line matching re and returns the
// submatches, or fails the test when the process exits or timeout passes.
func (p *Proc) WaitLine(re *regexp.Regexp, timeout time.Duration) []string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		select {
		case line := <-p.lines:
			if m := re.FindStringSubmatch(line); m != nil {
				return m
			}
		case <-p.done:
			// Drain lines printed just before exit.
			for {
				select {
				case line := <-p.lines:
					if m := re.FindStringSubmatch(line); m != nil {
						return m
					}
				default:
					p.t.Fatalf("%s %v exited (%v) before printing %q:\n%s", p.name, p.args, p.err, re, p.Output())
					return nil
				}
			}
		case <-ctx.Done():
			p.t.Fatalf("%s %v did not print %q within %v:\n%s", p.name, p.args, re, timeout, p.Output())
			return nil
		}
	}
}

// Pid returns the process id (to read /proc/<pid>/status, say).
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Output returns everything the process printed so far.
func (p *Proc) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.output.String()
}

// Kill sends SIGKILL (kill -9) and waits for the process to be gone.
func (p *Proc) Kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// Stop sends SIGTERM and waits up to timeout for a clean exit, returning the
// exit error (nil for status 0).
func (p *Proc) Stop(timeout time.Duration) error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return p.err
	case <-time.After(timeout):
		p.Kill()
		return fmt.Errorf("%s %v did not exit within %v of SIGTERM", p.name, p.args, timeout)
	}
}

// Exited reports whether the process has exited, and its exit error.
func (p *Proc) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// Wait waits up to timeout for the process to exit on its own and returns
// whether it did, and its exit error.
func (p *Proc) Wait(timeout time.Duration) (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	case <-time.After(timeout):
		return false, nil
	}
}
