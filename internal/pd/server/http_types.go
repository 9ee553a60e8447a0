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
	Name       string   `json:"name"`        // member name
	MemberID   uint64   `json:"member_id"`   // etcd member id
	PeerURLs   []string `json:"peer_urls"`   // URLs of the other members' traffic
	ClientURLs []string `json:"client_urls"` // URLs of clients' traffic (gRPC, etcd, HTTP)
}

// MembersJSON is /pd/api/v1/members.
type MembersJSON struct {
	Members []MemberJSON `json:"members"`          // every member of the etcd cluster
	Leader  *MemberJSON  `json:"leader,omitempty"` // the PD leader, if known
}

// StoreJSON is a store's registration.
type StoreJSON struct {
	ID             uint64            `json:"id"`                        // store id
	Address        string            `json:"address"`                   // gRPC address
	StateName      string            `json:"state_name"`                // Up, Offline or Tombstone
	Version        string            `json:"version,omitempty"`         // the store's binary version
	StatusAddress  string            `json:"status_address,omitempty"`  // status port address
	StartTimestamp int64             `json:"start_timestamp,omitempty"` // unix seconds the store started at
	Labels         map[string]string `json:"labels,omitempty"`          // placement labels
}

// StoreStatusJSON is a store's last heartbeat.
type StoreStatusJSON struct {
	Capacity        uint64 `json:"capacity"`                    // bytes
	Available       uint64 `json:"available"`                   // bytes
	UsedSize        uint64 `json:"used_size"`                   // bytes
	RegionCount     uint32 `json:"region_count"`                // peers on the store
	LeaderCount     uint32 `json:"leader_count"`                // leaders on the store
	IsBusy          bool   `json:"is_busy,omitempty"`           // the store said it is busy
	LastHeartbeatTS string `json:"last_heartbeat_ts,omitempty"` // RFC 3339, set by PD
}

// StoreInfoJSON is one entry of /pd/api/v1/stores.
type StoreInfoJSON struct {
	Store  StoreJSON       `json:"store"`  // registration
	Status StoreStatusJSON `json:"status"` // last heartbeat
}

// StoresJSON is /pd/api/v1/stores.
type StoresJSON struct {
	Count  int             `json:"count"`  // len(Stores)
	Stores []StoreInfoJSON `json:"stores"` // by id
}

// PeerJSON is a region's peer.
type PeerJSON struct {
	ID      uint64 `json:"id"`        // peer id
	StoreID uint64 `json:"store_id"`  // store of the peer
	Role    string `json:"role_name"` // Voter, Learner, IncomingVoter or DemotingVoter
}

// EpochJSON is a region epoch.
type EpochJSON struct {
	ConfVer uint64 `json:"conf_ver"` // bumped by membership changes
	Version uint64 `json:"version"`  // bumped by splits and merges
}

// DownPeerJSON is a peer the leader has not heard from.
type DownPeerJSON struct {
	Peer        PeerJSON `json:"peer"`         // the silent peer
	DownSeconds uint64   `json:"down_seconds"` // how long it has been silent
}

// RegionJSON is a region.
type RegionJSON struct {
	ID              uint64         `json:"id"`                      // region id
	StartKey        string         `json:"start_key"`               // hex, inclusive; empty: -inf
	EndKey          string         `json:"end_key"`                 // hex, exclusive; empty: +inf
	Epoch           EpochJSON      `json:"epoch"`                   // conf_ver and version
	Peers           []PeerJSON     `json:"peers"`                   // one per store
	Leader          *PeerJSON      `json:"leader,omitempty"`        // nil until a heartbeat names it
	DownPeers       []DownPeerJSON `json:"down_peers,omitempty"`    // peers the leader has not heard from
	PendingPeers    []PeerJSON     `json:"pending_peers,omitempty"` // peers whose log lags
	WrittenBytes    uint64         `json:"written_bytes"`           // since the previous heartbeat
	WrittenKeys     uint64         `json:"written_keys"`            // since the previous heartbeat
	ApproximateSize uint64         `json:"approximate_size"`        // bytes, the leader's estimate
	ApproximateKeys uint64         `json:"approximate_keys"`        // the leader's estimate
}

// RegionsJSON is /pd/api/v1/regions.
type RegionsJSON struct {
	Count   int          `json:"count"`   // len(Regions)
	Regions []RegionJSON `json:"regions"` // in key order
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
