package meta

import (
	"fmt"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// StoreInfo is what PD knows about one store: its registration (persisted)
// and its last heartbeat's statistics (memory only). Like RegionInfo it is
// immutable once published; updates replace it.
type StoreInfo struct {
	// Meta is the store as registered, with LastHeartbeat set by PD.
	Meta *pdpb.Store
	// Stats are the statistics of the last heartbeat (nil: none yet).
	Stats *pdpb.StoreStats
}

// ID is the store's id.
func (s *StoreInfo) ID() uint64 { return s.Meta.GetId() }

// IsTombstone reports whether the store was removed for good.
func (s *StoreInfo) IsTombstone() bool { return s.Meta.GetState() == pdpb.StoreState_Tombstone }

// ValidateStore checks the shape of a store registration.
func ValidateStore(s *pdpb.Store) error {
	if s == nil || s.GetId() == 0 {
		return fmt.Errorf("%w: no id", ErrInvalidStore)
	}
	if s.GetAddress() == "" {
		return fmt.Errorf("%w: store %d has no address", ErrInvalidStore, s.GetId())
	}
	return nil
}
