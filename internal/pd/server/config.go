package server

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/pd/meta"
)

// ErrBadConfig marks an invalid Config: a missing name or data dir, a
// malformed URL or initial cluster. `strata pd` exits with status 2 on it.
var ErrBadConfig = errors.New("pd: bad config")

// Defaults of a PD member.
const (
	// DefaultLeaderLease is the TTL of the PD leader's etcd lease (PD's
	// lease, 3 s): a dead leader is replaced within about this long.
	DefaultLeaderLease = 3 * time.Second
	// DefaultIDWindow is how many IDs the leader reserves in etcd at a
	// time.
	DefaultIDWindow = 1000
	// DefaultRegionFlushInterval bounds how long a region change waits
	// before it is written to etcd.
	DefaultRegionFlushInterval = 100 * time.Millisecond
)

// Config is one PD member's configuration.
type Config struct {
	// Name is the member's name in the etcd cluster (default "pd").
	Name string
	// DataDir holds the embedded etcd's data.
	DataDir string
	// ClientURLs are the URLs the member listens on for clients: PD's gRPC
	// service, etcd's and the HTTP API share them.
	ClientURLs []string
	// PeerURLs are the URLs the member listens on for other members.
	PeerURLs []string
	// AdvertiseClientURLs are the client URLs given to others (default
	// ClientURLs).
	AdvertiseClientURLs []string
	// AdvertisePeerURLs are the peer URLs given to others (default
	// PeerURLs).
	AdvertisePeerURLs []string
	// InitialCluster is "name=peer-url,..." listing the members that
	// start the cluster (default this member alone). It is read only when
	// the data dir is empty.
	InitialCluster string
	// LeaderLease is the PD leader lease (default DefaultLeaderLease).
	LeaderLease time.Duration
	// IDWindow is the ID allocator's window (default DefaultIDWindow).
	IDWindow uint64
	// TSOWindow is how far ahead the TSO limit is saved (default
	// tso.DefaultWindow).
	TSOWindow time.Duration
	// RegionFlushInterval is the region write-behind period (default
	// DefaultRegionFlushInterval).
	RegionFlushInterval time.Duration
	// ClusterConfig is the cluster config used until one is persisted.
	ClusterConfig meta.ClusterConfig
	// Logger receives PD's logs (default slog.Default()).
	Logger *slog.Logger
	// EtcdDebug logs etcd at debug level; otherwise etcd logs warnings
	// and errors only.
	EtcdDebug bool
	// Version is reported by /status and in store heartbeat responses.
	Version string
}

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	if c.Name == "" {
		c.Name = "pd"
	}
	if len(c.AdvertiseClientURLs) == 0 {
		c.AdvertiseClientURLs = c.ClientURLs
	}
	if len(c.AdvertisePeerURLs) == 0 {
		c.AdvertisePeerURLs = c.PeerURLs
	}
	if c.InitialCluster == "" && len(c.AdvertisePeerURLs) > 0 {
		parts := make([]string, len(c.AdvertisePeerURLs))
		for i, u := range c.AdvertisePeerURLs {
			parts[i] = c.Name + "=" + u
		}
		c.InitialCluster = strings.Join(parts, ",")
	}
	if c.LeaderLease <= 0 {
		c.LeaderLease = DefaultLeaderLease
	}
	if c.IDWindow == 0 {
		c.IDWindow = DefaultIDWindow
	}
	if c.RegionFlushInterval <= 0 {
		c.RegionFlushInterval = DefaultRegionFlushInterval
	}
	if c.ClusterConfig.Replication.MaxReplicas == 0 {
		c.ClusterConfig = meta.DefaultClusterConfig()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Validate checks c (after defaults) and returns an error wrapping
// ErrBadConfig that names the bad setting.
func (c Config) Validate() error {
	c = c.withDefaults()
	if c.DataDir == "" {
		return fmt.Errorf("%w: data-dir is empty", ErrBadConfig)
	}
	for _, set := range []struct {
		name string
		urls []string
	}{
		{"client-urls", c.ClientURLs}, {"peer-urls", c.PeerURLs},
		{"advertise-client-urls", c.AdvertiseClientURLs}, {"advertise-peer-urls", c.AdvertisePeerURLs},
	} {
		if len(set.urls) == 0 {
			return fmt.Errorf("%w: %s is empty", ErrBadConfig, set.name)
		}
		for _, u := range set.urls {
			if _, err := ParseURL(u); err != nil {
				return fmt.Errorf("%w: %s: %v", ErrBadConfig, set.name, err)
			}
		}
	}
	seen := false
	for _, member := range strings.Split(c.InitialCluster, ",") {
		name, u, ok := strings.Cut(strings.TrimSpace(member), "=")
		if !ok || name == "" {
			return fmt.Errorf("%w: initial-cluster %q: want comma-separated name=peer-url pairs", ErrBadConfig, c.InitialCluster)
		}
		if _, err := ParseURL(u); err != nil {
			return fmt.Errorf("%w: initial-cluster: %v", ErrBadConfig, err)
		}
		seen = seen || name == c.Name
	}
	if !seen {
		return fmt.Errorf("%w: initial-cluster %q does not name this member %q", ErrBadConfig, c.InitialCluster, c.Name)
	}
	if err := c.ClusterConfig.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrBadConfig, err)
	}
	return nil
}

// ParseURL parses an http:// URL with a host and a port, as etcd needs
// them.
func ParseURL(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("bad URL %q: %v", s, err)
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("bad URL %q: want http://host:port", s)
	}
	if u.Hostname() == "" || u.Port() == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("bad URL %q: want http://host:port", s)
	}
	return u, nil
}

// SplitURLs splits a comma-separated list of URLs, dropping empty ones.
func SplitURLs(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
