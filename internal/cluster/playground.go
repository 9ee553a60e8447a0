package cluster

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"
)

// The lines processes print when they serve.
var (
	PDReadyRE  = regexp.MustCompile(`strata pd serving on (http://\S+)`)
	KVReadyRE  = regexp.MustCompile(`strata kv serving on (\S+) \(store (\d+)\)`)
	SQLReadyRE = regexp.MustCompile(`strata sql ready: mysql --host (\S+) --port (\d+)`)
)

// ErrTagRunning is returned (wrapped) when a playground with the same tag
// is already running.
var ErrTagRunning = errors.New("playground already running")

var tagRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Options configure a Playground.
type Options struct {
	// Binary is the strata binary every process runs.
	Binary   string
	Topology Topology
	// Tag names the playground's folder under DataRoot; "" picks a
	// random one and removes the folder at Stop.
	Tag      string
	DataRoot string
	// ConfigFile, if set, is given to every process as --config;
	// otherwise OneMachineConfig, written into the playground's folder.
	ConfigFile string
	// Out receives progress lines (nil: none).
	Out io.Writer
	// ReadyTimeout bounds the wait for each process's readiness line
	// (default 2m); StopTimeout the SIGTERM phase of each tier (default
	// 20s).
	ReadyTimeout, StopTimeout time.Duration
}

// Playground is a local cluster of child processes.
type Playground struct {
	opts    Options
	tag     string
	dir     string
	keep    bool
	insts   []Instance
	env     []string // added to every child's environment (ChildEnv)
	config  string   // every child's --config (configFile)
	started time.Time
	exits   chan *ExitError

	mu       sync.Mutex
	procs    []*Process // in start order
	stopping bool
}

// New plans a playground: it checks the topology, that no playground with
// the tag is running and that every port is free (a *PortsTakenError if
// not), and creates the playground's folder. Nothing is started yet.
func New(opts Options) (*Playground, error) {
	if err := opts.Topology.Validate(); err != nil {
		return nil, err
	}
	if opts.ReadyTimeout <= 0 {
		opts.ReadyTimeout = 2 * time.Minute
	}
	if opts.StopTimeout <= 0 {
		opts.StopTimeout = 20 * time.Second
	}
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	pg := &Playground{opts: opts, tag: opts.Tag, keep: opts.Tag != ""}
	if pg.keep {
		if !tagRE.MatchString(pg.tag) {
			return nil, fmt.Errorf("%w: tag %q (letters, digits, '.', '_', '-'; at most 64)", ErrBadTopology, pg.tag)
		}
		pg.dir = filepath.Join(opts.DataRoot, pg.tag)
		if s, err := ReadState(pg.dir); err == nil && s.Running() && s.PID != os.Getpid() {
			return nil, fmt.Errorf("%w: tag %q (pid %d)", ErrTagRunning, pg.tag, s.PID)
		}
	} else {
		for {
			pg.tag = randomTag()
			pg.dir = filepath.Join(opts.DataRoot, pg.tag)
			if _, err := os.Stat(pg.dir); errors.Is(err, fs.ErrNotExist) {
				break
			}
		}
	}
	insts, err := Plan(opts.Topology, pg.dir)
	if err != nil {
		return nil, err
	}
	if err := CheckPorts(insts); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(pg.dir, 0o755); err != nil {
		return nil, fmt.Errorf("playground folder: %w", err)
	}
	pg.insts = insts
	pg.exits = make(chan *ExitError, len(insts))
	return pg, nil
}

func randomTag() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// Tag is the playground's tag (the random one when none was given).
func (pg *Playground) Tag() string { return pg.tag }

// Dir is the playground's folder.
func (pg *Playground) Dir() string { return pg.dir }

// Keep reports whether the folder stays after Stop.
func (pg *Playground) Keep() bool { return pg.keep }

// Instances are the planned processes, in start order.
func (pg *Playground) Instances() []Instance { return pg.insts }

// Exits reports children that exit while they should be running; the
// others keep running.
func (pg *Playground) Exits() <-chan *ExitError { return pg.exits }

// Start starts the PD members together and waits for each to serve, then
// each KV node and each SQL server in turn. If one fails (or ctx ends),
// everything started is stopped, the folder removed unless tagged, and
// the error returned: an *ExitError, ErrNotReady, or a start error.
func (pg *Playground) Start(ctx context.Context) error {
	pg.started = time.Now()
	fmt.Fprintf(pg.opts.Out, "Starting playground %q: %d pd, %d kv, %d sql in %s\n",
		pg.tag, pg.opts.Topology.PD, pg.opts.Topology.KV, pg.opts.Topology.SQL, pg.dir)
	var share string
	pg.env, share = ChildEnv(pg.opts.Topology)
	fmt.Fprintf(pg.opts.Out, "Each process runs with %s\n", share)
	cfg, desc, err := configFile(pg.opts.ConfigFile, pg.dir)
	if err == nil {
		pg.config = cfg
		fmt.Fprintf(pg.opts.Out, "Each process reads %s\n", desc)
		err = pg.start(ctx)
	}
	if err != nil {
		_ = pg.Stop(nil)
	}
	return err
}

func (pg *Playground) start(ctx context.Context) error {
	var pds []*Process
	for _, in := range pg.insts {
		if in.Role != RolePD {
			continue
		}
		p, err := pg.launch(in)
		if err != nil {
			return err
		}
		pds = append(pds, p)
	}
	for _, p := range pds {
		if _, err := pg.waitReady(ctx, p, PDReadyRE); err != nil {
			return err
		}
		fmt.Fprintf(pg.opts.Out, "%-6s ready at %s (pid %d)\n", p.Inst.Name(), p.Inst.Addr(), p.PID())
	}
	for _, in := range pg.insts {
		if in.Role == RolePD {
			continue
		}
		p, err := pg.launch(in)
		if err != nil {
			return err
		}
		re := KVReadyRE
		if in.Role == RoleSQL {
			re = SQLReadyRE
		}
		m, err := pg.waitReady(ctx, p, re)
		if err != nil {
			return err
		}
		extra := ""
		if in.Role == RoleKV {
			extra = ", store " + m[2]
		}
		fmt.Fprintf(pg.opts.Out, "%-6s ready at %s%s (pid %d)\n", in.Name(), in.Addr(), extra, p.PID())
	}
	return nil
}

// launch starts in, records it in the state file and watches its exit.
func (pg *Playground) launch(in Instance) (*Process, error) {
	p, err := StartProcess(pg.opts.Binary, in, Args(in, pg.insts, pg.config), pg.env)
	if err != nil {
		return nil, err
	}
	pg.mu.Lock()
	pg.procs = append(pg.procs, p)
	pg.mu.Unlock()
	go func() {
		<-p.Done()
		pg.mu.Lock()
		stopping := pg.stopping
		pg.mu.Unlock()
		if !stopping {
			pg.exits <- p.exitError()
		}
	}()
	return p, WriteState(pg.dir, pg.State())
}

func (pg *Playground) waitReady(ctx context.Context, p *Process, re *regexp.Regexp) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, pg.opts.ReadyTimeout)
	defer cancel()
	return p.WaitReady(ctx, re)
}

// State describes the playground and its processes.
func (pg *Playground) State() State {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	s := State{Tag: pg.tag, PID: os.Getpid(), Started: pg.started, Dir: pg.dir, Keep: pg.keep}
	for _, p := range pg.procs {
		s.Processes = append(s.Processes, processState(p))
	}
	return s
}

// SQLAddrs are the MySQL addresses of the SQL servers.
func (pg *Playground) SQLAddrs() []string {
	var out []string
	for _, in := range pg.insts {
		if in.Role == RoleSQL {
			out = append(out, in.Addr())
		}
	}
	return out
}

// Running counts the children still running.
func (pg *Playground) Running() int {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	n := 0
	for _, p := range pg.procs {
		if !p.Exited() {
			n++
		}
	}
	return n
}

// Stop stops the SQL servers, then the KV nodes, then PD (see
// stopProcesses; closing force kills what is left at once), removes the
// state file, and removes the folder unless the playground is tagged.
func (pg *Playground) Stop(force <-chan struct{}) error {
	pg.mu.Lock()
	pg.stopping = true
	procs := append([]*Process(nil), pg.procs...)
	pg.mu.Unlock()
	for _, role := range []Role{RoleSQL, RoleKV, RolePD} {
		var tier []*Process
		for _, p := range procs {
			if p.Inst.Role == role {
				tier = append(tier, p)
			}
		}
		if len(tier) > 0 {
			fmt.Fprintf(pg.opts.Out, "Stopping %d %s process(es)\n", len(tier), role)
			for _, p := range stopProcesses(tier, pg.opts.StopTimeout, force) {
				fmt.Fprintf(pg.opts.Out, "%s (pid %d) did not stop after SIGTERM; killed\n", p.Inst.Name(), p.PID())
			}
		}
	}
	if pg.keep {
		if err := os.Remove(filepath.Join(pg.dir, StateFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		fmt.Fprintf(pg.opts.Out, "Stopped; data kept in %s\n", pg.dir)
		return nil
	}
	if err := os.RemoveAll(pg.dir); err != nil {
		return fmt.Errorf("remove playground data: %w", err)
	}
	fmt.Fprintf(pg.opts.Out, "Stopped; removed %s\n", pg.dir)
	return nil
}
