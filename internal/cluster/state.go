package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"time"
)

// StateFile is the name of a playground's state file in its folder.
const StateFile = "playground.json"

// State is what a running playground writes about itself for `strata
// playground display`.
type State struct {
	Tag string `json:"tag"`
	// PID is the playground's own process id.
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
	// Dir is the playground's folder; Keep says it stays after stop.
	Dir       string         `json:"dir"`
	Keep      bool           `json:"keep"`
	Processes []ProcessState `json:"processes"`
}

// ProcessState is one child in a State.
type ProcessState struct {
	Name       string `json:"name"`
	Role       Role   `json:"role"`
	PID        int    `json:"pid"`
	Addr       string `json:"addr"`
	StatusAddr string `json:"status_addr"`
	DataDir    string `json:"data_dir"`
	LogFile    string `json:"log_file"`
}

// processState describes a started process.
func processState(p *Process) ProcessState {
	in := p.Inst
	return ProcessState{Name: in.Name(), Role: in.Role, PID: p.PID(), Addr: in.Addr(),
		StatusAddr: in.StatusAddr(), DataDir: in.DataDir(), LogFile: in.LogFile()}
}

// WriteState writes s to dir/StateFile atomically (a temporary file
// renamed over it).
func WriteState(dir string, s State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, StateFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write playground state: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, StateFile)); err != nil {
		return fmt.Errorf("write playground state: %w", err)
	}
	return nil
}

// ReadState reads dir/StateFile; the error wraps fs.ErrNotExist when
// there is none.
func ReadState(dir string) (State, error) {
	var s State
	b, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("%s: %w", filepath.Join(dir, StateFile), err)
	}
	return s, nil
}

// ReadStates reads the state file of every playground folder under root,
// sorted by tag. Folders without one (or an unreadable one) are skipped.
func ReadStates(root string) ([]State, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []State
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if s, err := ReadState(filepath.Join(root, e.Name())); err == nil {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tag < out[j].Tag })
	return out, nil
}

// Running reports whether the playground that wrote s is alive.
func (s State) Running() bool { return PIDAlive(s.PID) }

// PIDAlive reports whether a process with this pid exists (kill(pid, 0)
// succeeds or is refused for permission).
func PIDAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// DefaultDataRoot is where playgrounds keep their folders when no
// --data-dir is given: ~/.strata/data.
func DefaultDataRoot() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no --data-dir and no home directory: %w", err)
	}
	return filepath.Join(home, ".strata", "data"), nil
}
