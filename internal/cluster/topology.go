package cluster

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"time"
)

// Role is the kind of a process in a cluster.
type Role string

// The roles, in start order.
const (
	RolePD  Role = "pd"
	RoleKV  Role = "kv"
	RoleSQL Role = "sql"
)

// TiDB's default ports; a playground shifts them all by its port offset.
// PD member i serves clients on DefaultPDClientPort+2i and peers on
// DefaultPDPeerPort+2i; KV node i and SQL server i add i to theirs.
const (
	DefaultPDClientPort  = 2379
	DefaultPDPeerPort    = 2380
	DefaultKVPort        = 20160
	DefaultKVStatusPort  = 20180
	DefaultSQLPort       = 4000
	DefaultSQLStatusPort = 10080
)

// Limits on the process counts, so that one role's ports never run into
// another's (KV's gRPC ports end before its status ports begin).
const (
	MaxPD  = 9
	MaxKV  = DefaultKVStatusPort - DefaultKVPort
	MaxSQL = 50
)

// KVDrainTimeout is the --stop-timeout given to KV nodes: how long they
// let requests finish after SIGTERM before cutting connections.
const KVDrainTimeout = 3 * time.Second

// ErrBadTopology is returned (wrapped) for counts, offsets or tags that
// cannot be planned.
var ErrBadTopology = errors.New("bad playground topology")

// Topology is what a playground runs: how many processes of each role and
// where their ports start.
type Topology struct {
	PD, KV, SQL int
	// PortOffset is added to every default port.
	PortOffset int
	// Host is the address every process listens on (default 127.0.0.1).
	Host string
}

// Validate checks the counts and that every port fits in 1..65535.
func (t Topology) Validate() error {
	switch {
	case t.PD < 1 || t.PD > MaxPD:
		return fmt.Errorf("%w: --pd %d (want 1..%d)", ErrBadTopology, t.PD, MaxPD)
	case t.KV < 1 || t.KV > MaxKV:
		return fmt.Errorf("%w: --kv %d (want 1..%d)", ErrBadTopology, t.KV, MaxKV)
	case t.SQL < 0 || t.SQL > MaxSQL:
		return fmt.Errorf("%w: --sql %d (want 0..%d)", ErrBadTopology, t.SQL, MaxSQL)
	}
	lowest := min(DefaultPDClientPort, DefaultSQLPort) + t.PortOffset
	highest := DefaultKVStatusPort + t.KV - 1 + t.PortOffset
	if lowest < 1 || highest > 65535 {
		return fmt.Errorf("%w: --port-offset %d puts ports outside 1..65535 (ports run from %d to %d)",
			ErrBadTopology, t.PortOffset, lowest, highest)
	}
	return nil
}

func (t Topology) host() string {
	if t.Host == "" {
		return "127.0.0.1"
	}
	return t.Host
}

// Instance is one planned process.
type Instance struct {
	Role  Role   `json:"role"`
	Index int    `json:"index"`
	Host  string `json:"host"`
	// Port is PD's client port, KV's gRPC port or SQL's MySQL port.
	Port int `json:"port"`
	// PeerPort is PD's peer port (0 for the others).
	PeerPort int `json:"peer_port,omitempty"`
	// StatusPort is KV's and SQL's status port (0 for PD, which serves
	// its status on the client port).
	StatusPort int `json:"status_port,omitempty"`
	// Dir is the instance's folder: its data and its log live in it.
	Dir string `json:"dir"`
}

// Name is role-index: pd-0, kv-2, sql-0.
func (in Instance) Name() string { return fmt.Sprintf("%s-%d", in.Role, in.Index) }

// Addr is host:port of the main port.
func (in Instance) Addr() string { return hostPort(in.Host, in.Port) }

// StatusAddr is where /status and /metrics are served (PD: its client
// address).
func (in Instance) StatusAddr() string {
	if in.StatusPort == 0 {
		return in.Addr()
	}
	return hostPort(in.Host, in.StatusPort)
}

// PeerURL is PD's peer URL ("" for the others).
func (in Instance) PeerURL() string {
	if in.PeerPort == 0 {
		return ""
	}
	return "http://" + hostPort(in.Host, in.PeerPort)
}

// DataDir is the folder given to the process as --data-dir.
func (in Instance) DataDir() string { return filepath.Join(in.Dir, "data") }

// LogFile receives the process's stdout and stderr.
func (in Instance) LogFile() string { return filepath.Join(in.Dir, string(in.Role)+".log") }

// PortUse is one port a planned instance listens on.
type PortUse struct {
	Port int
	// Use says what for: "pd-0 client", "kv-1 status", ...
	Use string
}

// Ports lists the ports the instance listens on.
func (in Instance) Ports() []PortUse {
	switch in.Role {
	case RolePD:
		return []PortUse{{in.Port, in.Name() + " client"}, {in.PeerPort, in.Name() + " peer"}}
	case RoleKV:
		return []PortUse{{in.Port, in.Name() + " gRPC"}, {in.StatusPort, in.Name() + " status"}}
	default:
		return []PortUse{{in.Port, in.Name() + " MySQL"}, {in.StatusPort, in.Name() + " status"}}
	}
}

// Plan lays out t's instances in start order (PD, KV, SQL), each in its
// own folder under dir.
func Plan(t Topology, dir string) ([]Instance, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	h, off := t.host(), t.PortOffset
	var out []Instance
	add := func(in Instance) {
		in.Host = h
		in.Dir = filepath.Join(dir, in.Name())
		out = append(out, in)
	}
	for i := range t.PD {
		add(Instance{Role: RolePD, Index: i, Port: DefaultPDClientPort + 2*i + off, PeerPort: DefaultPDPeerPort + 2*i + off})
	}
	for i := range t.KV {
		add(Instance{Role: RoleKV, Index: i, Port: DefaultKVPort + i + off, StatusPort: DefaultKVStatusPort + i + off})
	}
	for i := range t.SQL {
		add(Instance{Role: RoleSQL, Index: i, Port: DefaultSQLPort + i + off, StatusPort: DefaultSQLStatusPort + i + off})
	}
	return out, nil
}

// Args are the command-line arguments (after the binary) that start in
// as a member of all, with configFile ("" for none) as its --config.
func Args(in Instance, all []Instance, configFile string) []string {
	var pdAddrs, initial string
	for _, o := range all {
		if o.Role != RolePD {
			continue
		}
		if pdAddrs != "" {
			pdAddrs += ","
			initial += ","
		}
		pdAddrs += o.Addr()
		initial += o.Name() + "=" + o.PeerURL()
	}
	var args []string
	switch in.Role {
	case RolePD:
		args = []string{"pd", "--name", in.Name(), "--data-dir", in.DataDir(),
			"--client-urls", "http://" + in.Addr(), "--peer-urls", in.PeerURL(), "--initial-cluster", initial}
	case RoleKV:
		// The SQL servers stop first, so a KV node has no client
		// requests left to drain: a short drain keeps the stop quick
		// even while stores hold raft streams to each other.
		args = []string{"kv", "--pd", pdAddrs, "--addr", in.Addr(), "--status-addr", in.StatusAddr(),
			"--data-dir", in.DataDir(), "--stop-timeout", KVDrainTimeout.String()}
	case RoleSQL:
		args = []string{"sql", "--pd", pdAddrs, "--host", in.Host, "--port", strconv.Itoa(in.Port),
			"--status-port", strconv.Itoa(in.StatusPort), "--data-dir", in.DataDir()}
	}
	if configFile != "" {
		args = append(args, "--config", configFile)
	}
	return args
}

func hostPort(h string, p int) string { return net.JoinHostPort(h, strconv.Itoa(p)) }
