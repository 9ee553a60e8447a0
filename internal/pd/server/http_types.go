package server

import (
	"encoding/hex"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// The JSON shapes of the HTTP API, named after PD's (keys hex-encoded in
// upper case, snake_case fields).

// MemberJSON is a PD member.
type MemberJSON struct {
	Name       string   `json:"name"`
	MemberID   uint64   `json:"member_id"`
	PeerURLs   []string `json:"peer_urls"`
	ClientURLs []string `json:"client_urls"`
}

// MembersJSON is /pd/api/v1/members.
type MembersJSON struct {
	Members []MemberJSON `json:"members"`
	Leader  *MemberJSON  `json:"leader,omitempty"`
}

// StoreJSON is a store's registration.
type StoreJSON struct {
	ID             uint64            `json:"id"`
	Address        string            `json:"address"`
	StateName      string            `json:"state_name"`
	Version        string            `json:"version,omitempty"`
	StatusAddress  string            `json:"status_address,omitempty"`
	StartTimestamp int64             `json:"start_timestamp,omitempty"`
	Labels         map[string]string `json:"labels,omitempty"`
}

// StoreStatusJSON is a store's last heartbeat.
type StoreStatusJSON struct {
	Capacity        uint64 `json:"capacity"`
	Available       uint64 `json:"available"`
	UsedSize        uint64 `json:"used_size"`
	RegionCount     uint32 `json:"region_count"`
	LeaderCount     uint32 `json:"leader_count"`
	IsBusy          bool   `json:"is_busy,omitempty"`
	LastHeartbeatTS string `json:"last_heartbeat_ts,omitempty"`
}

// StoreInfoJSON is one entry of /pd/api/v1/stores.
type StoreInfoJSON struct {
	Store  StoreJSON       `json:"store"`
	Status StoreStatusJSON `json:"status"`
}

// StoresJSON is /pd/api/v1/stores.
type StoresJSON struct {
	Count  int             `json:"count"`
	Stores []StoreInfoJSON `json:"stores"`
}

// PeerJSON is a region's peer.
type PeerJSON struct {
	ID      uint64 `json:"id"`
	StoreID uint64 `json:"store_id"`
	Role    string `json:"role_name"`
}

// EpochJSON is a region epoch.
type EpochJSON struct {
	ConfVer uint64 `json:"conf_ver"`
	Version uint64 `json:"version"`
}

// DownPeerJSON is a peer the leader has not heard from.
type DownPeerJSON struct {
	Peer        PeerJSON `json:"peer"`
	DownSeconds uint64   `json:"down_seconds"`
}

// RegionJSON is a region.
type RegionJSON struct {
	ID              uint64         `json:"id"`
	StartKey        string         `json:"start_key"`
	EndKey          string         `json:"end_key"`
	Epoch           EpochJSON      `json:"epoch"`
	Peers           []PeerJSON     `json:"peers"`
	Leader          *PeerJSON      `json:"leader,omitempty"`
	DownPeers       []DownPeerJSON `json:"down_peers,omitempty"`
	PendingPeers    []PeerJSON     `json:"pending_peers,omitempty"`
	WrittenBytes    uint64         `json:"written_bytes"`
	WrittenKeys     uint64         `json:"written_keys"`
	ApproximateSize uint64         `json:"approximate_size"`
	ApproximateKeys uint64         `json:"approximate_keys"`
}

// RegionsJSON is /pd/api/v1/regions.
type RegionsJSON struct {
	Count   int          `json:"count"`
	Regions []RegionJSON `json:"regions"`
}

func memberJSON(m *pdpb.Member) MemberJSON {
	return MemberJSON{Name: m.GetName(), MemberID: m.GetMemberId(), PeerURLs: m.GetPeerUrls(), ClientURLs: m.GetClientUrls()}
}

func storeJSON(s *meta.StoreInfo) StoreInfoJSON {
	m := s.Meta
	out := StoreInfoJSON{Store: StoreJSON{
		ID: m.GetId(), Address: m.GetAddress(), StateName: m.GetState().String(), Version: m.GetVersion(),
		StatusAddress: m.GetStatusAddress(), StartTimestamp: m.GetStartTimestamp(),
	}}
	for _, l := range m.GetLabels() {
		if out.Store.Labels == nil {
			out.Store.Labels = map[string]string{}
		}
		out.Store.Labels[l.GetKey()] = l.GetValue()
	}
	if st := s.Stats; st != nil {
		out.Status = StoreStatusJSON{Capacity: st.GetCapacity(), Available: st.GetAvailable(), UsedSize: st.GetUsedSize(),
			RegionCount: st.GetRegionCount(), LeaderCount: st.GetLeaderCount(), IsBusy: st.GetIsBusy()}
	}
	if hb := m.GetLastHeartbeat(); hb > 0 {
		out.Status.LastHeartbeatTS = time.Unix(0, hb).UTC().Format(time.RFC3339Nano)
	}
	return out
}

func peerJSON(p *kvrpcpb.Peer) PeerJSON {
	return PeerJSON{ID: p.GetId(), StoreID: p.GetStoreId(), Role: p.GetRole().String()}
}

func hexKey(k []byte) string { return strings.ToUpper(hex.EncodeToString(k)) }

func regionJSON(r *meta.RegionInfo) RegionJSON {
	e := r.Epoch()
	out := RegionJSON{
		ID: r.ID(), StartKey: hexKey(r.StartKey()), EndKey: hexKey(r.EndKey()),
		Epoch:        EpochJSON{ConfVer: e.GetConfVer(), Version: e.GetVersion()},
		WrittenBytes: r.BytesWritten, WrittenKeys: r.KeysWritten,
		ApproximateSize: r.ApproximateSize, ApproximateKeys: r.ApproximateKeys,
	}
	for _, p := range r.Meta.GetPeers() {
		out.Peers = append(out.Peers, peerJSON(p))
	}
	if r.Leader != nil {
		l := peerJSON(r.Leader)
		out.Leader = &l
	}
	for _, d := range r.DownPeers {
		out.DownPeers = append(out.DownPeers, DownPeerJSON{Peer: peerJSON(d.GetPeer()), DownSeconds: d.GetDownSeconds()})
	}
	for _, p := range r.PendingPeers {
		out.PendingPeers = append(out.PendingPeers, peerJSON(p))
	}
	return out
}
