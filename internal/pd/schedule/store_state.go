package schedule

import (
	"fmt"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// StoreState is how the scheduler sees a store, from its registration
// state and the age of its last heartbeat.
type StoreState int

const (
	// StoreUp: heard from lately; may get new peers.
	StoreUp StoreState = iota
	// StoreDisconnected: silent longer than DisconnectDuration; keeps
	// its peers but gets no new ones and takes no part in balancing.
	StoreDisconnected
	// StoreDown: silent longer than max-store-down-time; its peers are
	// rebuilt elsewhere.
	StoreDown
	// StoreOffline: being decommissioned; its peers move elsewhere.
	StoreOffline
	// StoreTombstone: removed for good (or unknown); its peers are
	// rebuilt elsewhere.
	StoreTombstone
)

var storeStateNames = [...]string{"up", "disconnected", "down", "offline", "tombstone"}

// String is the state's name.
func (s StoreState) String() string {
	if s >= 0 && int(s) < len(storeStateNames) {
		return storeStateNames[s]
	}
	return fmt.Sprintf("store-state(%d)", int(s))
}

// MarshalText makes a StoreState a string in JSON.
func (s StoreState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// lost reports whether peers on a store in this state must be replaced.
func (s StoreState) lost() bool { return s >= StoreDown }

// StoreStateOf classifies store s at now. A heartbeat older than since
// counts as heard at since (a new PD leader starts the clocks at its
// start); a store never heard from, with since zero, is disconnected.
// Silent longer than disconnect: StoreDisconnected; longer than maxDown:
// StoreDown. A nil store is StoreTombstone.
func StoreStateOf(s *meta.StoreInfo, now, since time.Time, disconnect, maxDown time.Duration) StoreState {
	if s == nil {
		return StoreTombstone
	}
	switch s.Meta.GetState() {
	case pdpb.StoreState_Tombstone:
		return StoreTombstone
	case pdpb.StoreState_Offline:
		return StoreOffline
	}
	var last time.Time
	if hb := s.Meta.GetLastHeartbeat(); hb != 0 {
		last = time.Unix(0, hb)
	}
	if last.Before(since) {
		last = since
	}
	if last.IsZero() {
		return StoreDisconnected
	}
	switch silent := now.Sub(last); {
	case silent > maxDown:
		return StoreDown
	case silent > disconnect:
		return StoreDisconnected
	}
	return StoreUp
}
