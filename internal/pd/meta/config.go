package meta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/strata-db/strata/internal/config"
)

// ClusterConfig is PD's cluster-wide configuration, served and updated by
// the HTTP API (/pd/api/v1/config) and persisted with the cluster: once
// persisted, the stored value wins over the config file of a member, as in
// PD. Keys are PD's.
type ClusterConfig struct {
	// Replication is [replication].
	Replication ReplicationConfig `json:"replication"`
	// Schedule is [schedule].
	Schedule ScheduleConfig `json:"schedule"`
}

// ReplicationConfig is PD's [replication].
type ReplicationConfig struct {
	// MaxReplicas is the replica count of every region (default 3).
	MaxReplicas uint64 `json:"max-replicas"`
	// LocationLabels rank the store labels for isolation.
	LocationLabels []string `json:"location-labels"`
}

// ScheduleConfig is PD's [schedule].
type ScheduleConfig struct {
	// MaxStoreDownTime is how long a store may be silent before its
	// replicas are rebuilt elsewhere (default 30m).
	MaxStoreDownTime config.Duration `json:"max-store-down-time"`
	// LeaderScheduleLimit bounds concurrent leader moves (default 4).
	LeaderScheduleLimit uint64 `json:"leader-schedule-limit"`
	// RegionScheduleLimit bounds concurrent region moves (default 2048).
	RegionScheduleLimit uint64 `json:"region-schedule-limit"`
	// ReplicaScheduleLimit bounds concurrent replica repairs (default 64).
	ReplicaScheduleLimit uint64 `json:"replica-schedule-limit"`
	// MaxMergeRegionSize is in MiB (default 20).
	MaxMergeRegionSize uint64 `json:"max-merge-region-size"`
	// MaxMergeRegionKeys (default 200000).
	MaxMergeRegionKeys uint64 `json:"max-merge-region-keys"`
	// SplitMergeInterval forbids merging a region split this recently
	// (default 1h).
	SplitMergeInterval config.Duration `json:"split-merge-interval"`
}

// DefaultClusterConfig is PD's defaults.
func DefaultClusterConfig() ClusterConfig {
	d := config.Default()
	return ClusterConfigFrom(d.Schedule, d.Replication)
}

// ClusterConfigFrom takes the [schedule] and [replication] sections of a
// process config file.
func ClusterConfigFrom(s config.Schedule, r config.Replication) ClusterConfig {
	return ClusterConfig{
		Replication: ReplicationConfig{
			MaxReplicas:    uint64(r.MaxReplicas),
			LocationLabels: append([]string(nil), r.LocationLabels...),
		},
		Schedule: ScheduleConfig{
			MaxStoreDownTime:     s.MaxStoreDownTime,
			LeaderScheduleLimit:  uint64(s.LeaderScheduleLimit),
			RegionScheduleLimit:  uint64(s.RegionScheduleLimit),
			ReplicaScheduleLimit: uint64(s.ReplicaScheduleLimit),
			MaxMergeRegionSize:   s.MaxMergeRegionSize,
			MaxMergeRegionKeys:   s.MaxMergeRegionKeys,
			SplitMergeInterval:   s.SplitMergeInterval,
		},
	}
}

// Validate checks the ranges of the values.
func (c ClusterConfig) Validate() error {
	if c.Replication.MaxReplicas < 1 || c.Replication.MaxReplicas > 15 {
		return fmt.Errorf("%w: max-replicas %d not in [1, 15]", ErrInvalidConfig, c.Replication.MaxReplicas)
	}
	if c.Schedule.MaxStoreDownTime.D() <= 0 {
		return fmt.Errorf("%w: max-store-down-time %v must be positive", ErrInvalidConfig, c.Schedule.MaxStoreDownTime)
	}
	if c.Schedule.SplitMergeInterval.D() < 0 {
		return fmt.Errorf("%w: split-merge-interval %v is negative", ErrInvalidConfig, c.Schedule.SplitMergeInterval)
	}
	return nil
}

// Update returns c with the keys of m applied, as PD's POST
// /pd/api/v1/config takes them: a key is a section's key
// ("max-replicas"), a dotted one ("schedule.max-store-down-time"), or a
// section holding keys ({"schedule": {"leader-schedule-limit": 8}}).
// Durations are strings ("1h"). Unknown keys, values of the wrong type and
// out-of-range values fail with ErrInvalidConfig; c is not changed.
func (c ClusterConfig) Update(m map[string]any) (ClusterConfig, error) {
	cur, err := toMap(c)
	if err != nil {
		return c, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m[k]
		if sec, ok := cur[k].(map[string]any); ok {
			sub, ok := v.(map[string]any)
			if !ok {
				return c, fmt.Errorf("%w: %q must be an object", ErrInvalidConfig, k)
			}
			for sk, sv := range sub {
				if _, known := sec[sk]; !known {
					return c, fmt.Errorf("%w: unknown key %q", ErrInvalidConfig, k+"."+sk)
				}
				sec[sk] = sv
			}
			continue
		}
		section, key := "", k
		if i := strings.IndexByte(k, '.'); i >= 0 {
			section, key = k[:i], k[i+1:]
		} else {
			for name, s := range cur {
				if _, ok := s.(map[string]any)[key]; ok {
					section = name
				}
			}
		}
		sec, ok := cur[section].(map[string]any)
		if !ok {
			return c, fmt.Errorf("%w: unknown key %q", ErrInvalidConfig, k)
		}
		if _, known := sec[key]; !known {
			return c, fmt.Errorf("%w: unknown key %q", ErrInvalidConfig, k)
		}
		sec[key] = v
	}
	b, err := json.Marshal(cur)
	if err != nil {
		return c, fmt.Errorf("%w: %v", ErrInvalidConfig, err)
	}
	next, err := DecodeClusterConfig(b)
	if err != nil {
		return c, err
	}
	return next, nil
}

// DecodeClusterConfig parses a JSON config over the defaults and
// validates it; unknown keys are an error.
func DecodeClusterConfig(b []byte) (ClusterConfig, error) {
	next := DefaultClusterConfig()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&next); err != nil {
		return ClusterConfig{}, fmt.Errorf("%w: %v", ErrInvalidConfig, err)
	}
	if err := next.Validate(); err != nil {
		return ClusterConfig{}, err
	}
	return next, nil
}

func toMap(c ClusterConfig) (map[string]any, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m, nil
}
