package meta

import (
	"errors"
	"testing"
	"time"
)

func TestClusterConfigUpdate(t *testing.T) {
	c := DefaultClusterConfig()
	if c.Replication.MaxReplicas != 3 || c.Schedule.MaxStoreDownTime.D() != 30*time.Minute {
		t.Fatalf("defaults: %+v", c)
	}
	next, err := c.Update(map[string]any{
		"max-replicas":                 5.0,
		"schedule.max-store-down-time": "1h",
		"schedule":                     map[string]any{"leader-schedule-limit": 8.0},
	})
	if err != nil {
		t.Fatal(err)
	}
	if next.Replication.MaxReplicas != 5 || next.Schedule.MaxStoreDownTime.D() != time.Hour ||
		next.Schedule.LeaderScheduleLimit != 8 || next.Schedule.RegionScheduleLimit != 2048 {
		t.Fatalf("updated: %+v", next)
	}
	if c.Replication.MaxReplicas != 3 {
		t.Fatal("Update changed its receiver")
	}
	for _, bad := range []map[string]any{
		{"no-such-key": 1.0},
		{"schedule.nope": 1.0},
		{"max-replicas": "three"},
		{"max-replicas": 0.0},
		{"max-store-down-time": "soon"},
		{"schedule": 3.0},
	} {
		if _, err := c.Update(bad); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("Update(%v) = %v, want ErrInvalidConfig", bad, err)
		}
	}
	if _, err := DecodeClusterConfig([]byte(`{"replication":{"max-replicas":2}}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeClusterConfig([]byte(`{"bogus":1}`)); !errors.Is(err, ErrInvalidConfig) {
		t.Fatalf("unknown field: %v", err)
	}
}
