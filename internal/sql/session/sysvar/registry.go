package sysvar

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ServerInfo is what the server process knows about itself; it fills the
// read-only variables that describe it (version, hostname, port, ...).
type ServerInfo struct {
	// Version is Strata's version ("v0.1.0"); @@version is
	// "8.0.11-Strata-" + Version, as TiDB reports "8.0.11-TiDB-v7.5.0".
	Version string
	// Hostname defaults to os.Hostname().
	Hostname string
	// Port is the MySQL port (default 4000).
	Port int
	// Socket is the Unix socket path, if any.
	Socket string
	// DataDir is the data directory.
	DataDir string
	// TmpDir defaults to os.TempDir().
	TmpDir string
	// SSL reports whether TLS is configured (@@have_ssl YES / DISABLED).
	SSL bool
	// SystemTimeZone is @@system_time_zone (default: the abbreviation of
	// the local zone now, like MySQL).
	SystemTimeZone string
	// SystemLocation is the zone of time_zone = SYSTEM (default
	// time.Local).
	SystemLocation *time.Location
}

// MySQLVersionPrefix is the MySQL version Strata reports before its own.
const MySQLVersionPrefix = "8.0.11-Strata-"

// Registry holds the variable definitions of one server. Build it with
// NewRegistry, Register any extra variables, then share it: lookups take
// no lock, so Register must not run concurrently with them.
type Registry struct {
	vars   map[string]*SysVar
	sorted []*SysVar
	system *time.Location // time_zone = SYSTEM
}

// NewRegistry returns a registry with every built-in variable, the
// server-describing ones filled from info.
func NewRegistry(info ServerInfo) *Registry {
	r := &Registry{vars: make(map[string]*SysVar, 256)}
	for _, sv := range builtins() {
		if err := r.Register(sv); err != nil {
			panic(err) // a duplicate in builtins is a programming error
		}
	}
	r.fillServerInfo(info)
	return r
}

// Register adds sv (its Name is lower-cased). Registering a name twice is
// an error.
func (r *Registry) Register(sv SysVar) error {
	sv.Name = strings.ToLower(sv.Name)
	if _, dup := r.vars[sv.Name]; dup {
		return fmt.Errorf("sysvar: %q registered twice", sv.Name)
	}
	if sv.Alias != "" {
		if _, ok := r.vars[sv.Alias]; !ok {
			return fmt.Errorf("sysvar: alias %q of unknown %q", sv.Name, sv.Alias)
		}
	}
	p := &sv
	r.vars[sv.Name] = p
	i := sort.Search(len(r.sorted), func(i int) bool { return r.sorted[i].Name >= sv.Name })
	r.sorted = append(r.sorted, nil)
	copy(r.sorted[i+1:], r.sorted[i:])
	r.sorted[i] = p
	return nil
}

// Lookup finds a variable by name, case-insensitively. An alias is
// returned as itself; Resolve follows it.
func (r *Registry) Lookup(name string) (*SysVar, bool) {
	if sv, ok := r.vars[name]; ok {
		return sv, true
	}
	sv, ok := r.vars[strings.ToLower(name)]
	return sv, ok
}

// Resolve finds a variable by name and follows an alias to the variable
// that holds the value.
func (r *Registry) Resolve(name string) (*SysVar, error) {
	sv, ok := r.Lookup(name)
	if !ok {
		return nil, errUnknown(name)
	}
	if sv.Alias != "" {
		sv = r.vars[sv.Alias]
	}
	return sv, nil
}

// All returns every variable, sorted by name. The slice is shared: do not
// modify it.
func (r *Registry) All() []*SysVar { return r.sorted }

func (r *Registry) setDefault(name, v string) {
	if sv, ok := r.vars[name]; ok {
		sv.Default = v
	}
}

func (r *Registry) fillServerInfo(info ServerInfo) {
	if info.Version == "" {
		info.Version = "dev"
	}
	if info.Hostname == "" {
		info.Hostname, _ = os.Hostname()
	}
	if info.Port == 0 {
		info.Port = 4000
	}
	if info.TmpDir == "" {
		info.TmpDir = os.TempDir()
	}
	r.system = info.SystemLocation
	if info.SystemTimeZone == "" {
		info.SystemTimeZone, _ = time.Now().In(r.systemLocation()).Zone()
	}
	r.setDefault("version", MySQLVersionPrefix+info.Version)
	r.setDefault("hostname", info.Hostname)
	r.setDefault("port", strconv.Itoa(info.Port))
	r.setDefault("socket", info.Socket)
	r.setDefault("datadir", info.DataDir)
	r.setDefault("tmpdir", info.TmpDir)
	r.setDefault("system_time_zone", info.SystemTimeZone)
	ssl := "DISABLED"
	if info.SSL {
		ssl = "YES"
	}
	r.setDefault("have_ssl", ssl)
	r.setDefault("have_openssl", ssl)
	r.setDefault("version_compile_os", compileOS())
	r.setDefault("version_compile_machine", compileMachine())
}

// compileOS is what MySQL prints for its build OS ("Linux").
func compileOS() string {
	switch runtime.GOOS {
	case "linux":
		return "Linux"
	case "darwin":
		return "macOS"
	case "windows":
		return "Win64"
	}
	return runtime.GOOS
}

// compileMachine is MySQL's name for the CPU architecture.
func compileMachine() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x86_64"
	case "arm64":
		return "aarch64"
	}
	return runtime.GOARCH
}
