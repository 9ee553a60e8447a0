package schedule

import (
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

func TestStoreStateOf(t *testing.T) {
	now := simStart
	store := func(state pdpb.StoreState, last time.Time) *meta.StoreInfo {
		s := &pdpb.Store{Id: 1, Address: "a", State: state}
		if !last.IsZero() {
			s.LastHeartbeat = last.UnixNano()
		}
		return &meta.StoreInfo{Meta: s}
	}
	const disconnect, down = 20 * time.Second, 30 * time.Minute
	for _, tc := range []struct {
		name  string
		store *meta.StoreInfo
		since time.Time
		want  StoreState
	}{
		{"fresh", store(pdpb.StoreState_Up, now.Add(-time.Second)), time.Time{}, StoreUp},
		{"at the disconnect bound", store(pdpb.StoreState_Up, now.Add(-disconnect)), time.Time{}, StoreUp},
		{"disconnected", store(pdpb.StoreState_Up, now.Add(-disconnect-time.Second)), time.Time{}, StoreDisconnected},
		{"at the down bound", store(pdpb.StoreState_Up, now.Add(-down)), time.Time{}, StoreDisconnected},
		{"down", store(pdpb.StoreState_Up, now.Add(-down-time.Second)), time.Time{}, StoreDown},
		{"down but the leader is new", store(pdpb.StoreState_Up, now.Add(-time.Hour)), now.Add(-time.Minute), StoreDisconnected},
		{"never heard, no since", store(pdpb.StoreState_Up, time.Time{}), time.Time{}, StoreDisconnected},
		{"never heard since long", store(pdpb.StoreState_Up, time.Time{}), now.Add(-time.Hour), StoreDown},
		{"offline", store(pdpb.StoreState_Offline, now), time.Time{}, StoreOffline},
		{"tombstone", store(pdpb.StoreState_Tombstone, now), time.Time{}, StoreTombstone},
		{"unknown", nil, time.Time{}, StoreTombstone},
	} {
		if got := StoreStateOf(tc.store, now, tc.since, disconnect, down); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
