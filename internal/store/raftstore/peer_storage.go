package raftstore

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"go.etcd.io/raft/v3"
	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

// Initial raft log position of a region created by bootstrap or split
// (TiKV's RAFT_INIT_LOG_INDEX/TERM): an empty peer (last index 0) rejects
// the leader's appends and gets a snapshot instead of replaying history.
const (
	raftInitLogIndex = 5
	raftInitLogTerm  = 5
)

// maxCachedEntries bounds the in-memory tail of a region's log; older
// entries are read back from raftdb.
const maxCachedEntries = 1024

// peerStorage is a region's raft.Storage over raftdb: the hard state, the
// log (cached tail, rest in raftdb) and the truncated state. Only the
// peer's raft goroutine calls it, except snapshot hand-off (snapMu).
type peerStorage struct {
	regionID  uint64
	raftdb    *pebble.DB
	hardState *raftpb.HardState
	confState *raftpb.ConfState
	lastIndex uint64
	lastTerm  uint64
	truncated truncState
	applied   uint64 // applied index when the peer was (re)loaded

	// cache holds the entries [cache[0].Index, lastIndex], contiguous.
	cache []*raftpb.Entry

	// snapshot is the generated snapshot raft may send, if any.
	snapshot func() (*raftpb.Snapshot, error)
}

var _ raft.Storage = (*peerStorage)(nil)

// InitialState implements raft.Storage.
func (ps *peerStorage) InitialState() (*raftpb.HardState, *raftpb.ConfState, error) {
	hs := proto.Clone(ps.hardState).(*raftpb.HardState)
	cs := proto.Clone(ps.confState).(*raftpb.ConfState)
	return hs, cs, nil
}

// FirstIndex implements raft.Storage.
func (ps *peerStorage) FirstIndex() (uint64, error) { return ps.truncated.Index + 1, nil }

// LastIndex implements raft.Storage.
func (ps *peerStorage) LastIndex() (uint64, error) { return ps.lastIndex, nil }

// Term implements raft.Storage.
func (ps *peerStorage) Term(i uint64) (uint64, error) {
	switch {
	case i == ps.truncated.Index:
		return ps.truncated.Term, nil
	case i < ps.truncated.Index:
		return 0, raft.ErrCompacted
	case i > ps.lastIndex:
		return 0, raft.ErrUnavailable
	case i == ps.lastIndex:
		return ps.lastTerm, nil
	}
	if e := ps.cached(i); e != nil {
		return e.GetTerm(), nil
	}
	ents, err := ps.readEntries(i, i+1, 0)
	if err != nil {
		return 0, err
	}
	return ents[0].GetTerm(), nil
}

// Entries implements raft.Storage.
func (ps *peerStorage) Entries(lo, hi, maxSize uint64) ([]*raftpb.Entry, error) {
	if lo <= ps.truncated.Index {
		return nil, raft.ErrCompacted
	}
	if hi > ps.lastIndex+1 {
		return nil, fmt.Errorf("raftstore: entries [%d, %d) beyond last index %d: %w", lo, hi, ps.lastIndex, raft.ErrUnavailable)
	}
	var out []*raftpb.Entry
	var size uint64
	add := func(e *raftpb.Entry) bool {
		s := uint64(proto.Size(e))
		if len(out) > 0 && size+s > maxSize {
			return false
		}
		out = append(out, e)
		size += s
		return true
	}
	idx := lo
	if len(ps.cache) == 0 || lo < ps.cache[0].GetIndex() {
		end := hi
		if len(ps.cache) > 0 && ps.cache[0].GetIndex() < end {
			end = ps.cache[0].GetIndex()
		}
		ents, err := ps.readEntries(lo, end, maxSize)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			if !add(e) {
				return out, nil
			}
		}
		idx = end
		if len(out) < int(end-lo) {
			return out, nil
		}
	}
	for ; idx < hi; idx++ {
		if !add(ps.cached(idx)) {
			break
		}
	}
	return out, nil
}

// Snapshot implements raft.Storage.
func (ps *peerStorage) Snapshot() (*raftpb.Snapshot, error) {
	if ps.snapshot == nil {
		return nil, raft.ErrSnapshotTemporarilyUnavailable
	}
	return ps.snapshot()
}

func (ps *peerStorage) cached(i uint64) *raftpb.Entry {
	if len(ps.cache) == 0 || i < ps.cache[0].GetIndex() || i > ps.lastIndex {
		return nil
	}
	return ps.cache[i-ps.cache[0].GetIndex()]
}

// readEntries reads [lo, hi) from raftdb, stopping after maxSize bytes
// (at least one entry; 0 means no limit).
func (ps *peerStorage) readEntries(lo, hi, maxSize uint64) ([]*raftpb.Entry, error) {
	it, err := ps.raftdb.NewIter(&pebble.IterOptions{
		LowerBound: raftLogKey(ps.regionID, lo), UpperBound: raftLogKey(ps.regionID, hi),
	})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []*raftpb.Entry
	var size uint64
	want := lo
	for ok := it.First(); ok; ok = it.Next() {
		e := &raftpb.Entry{}
		if err := proto.Unmarshal(it.Value(), e); err != nil {
			return nil, fmt.Errorf("raftstore: region %d: corrupt log entry: %w", ps.regionID, err)
		}
		if e.GetIndex() != want {
			return nil, fmt.Errorf("raftstore: region %d: log hole at %d (found %d)", ps.regionID, want, e.GetIndex())
		}
		size += uint64(len(it.Value()))
		if len(out) > 0 && maxSize > 0 && size > maxSize {
			break
		}
		out = append(out, e)
		want++
	}
	if err := it.Error(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("raftstore: region %d: entries [%d, %d) missing: %w", ps.regionID, lo, hi, raft.ErrUnavailable)
	}
	return out, nil
}

// append records entries (and the deletion of a conflicting tail) in wb
// and updates the in-memory log. The caller commits wb before Advance.
func (ps *peerStorage) append(wb *pebble.Batch, ents []*raftpb.Entry) error {
	if len(ents) == 0 {
		return nil
	}
	first := ents[0].GetIndex()
	if first <= ps.truncated.Index {
		return fmt.Errorf("raftstore: region %d: append at %d below truncated %d", ps.regionID, first, ps.truncated.Index)
	}
	for _, e := range ents {
		b, err := proto.Marshal(e)
		if err != nil {
			return err
		}
		if err := wb.Set(raftLogKey(ps.regionID, e.GetIndex()), b, nil); err != nil {
			return err
		}
	}
	last := ents[len(ents)-1]
	if last.GetIndex() < ps.lastIndex {
		// A conflicting tail: delete what the new entries do not cover.
		if err := wb.DeleteRange(raftLogKey(ps.regionID, last.GetIndex()+1), raftLogKey(ps.regionID, ps.lastIndex+1), nil); err != nil {
			return err
		}
	}
	// Cache: keep the contiguous prefix below first, then the new ones,
	// in place: nothing else holds the array (Entries copies out of it).
	if len(ps.cache) > 0 && first > ps.cache[0].GetIndex() && first <= ps.lastIndex+1 {
		ps.cache = append(ps.cache[:first-ps.cache[0].GetIndex()], ents...)
	} else {
		ps.cache = append([]*raftpb.Entry(nil), ents...)
	}
	if n := len(ps.cache); n > maxCachedEntries {
		ps.cache = append([]*raftpb.Entry(nil), ps.cache[n-maxCachedEntries/2:]...)
	}
	ps.lastIndex, ps.lastTerm = last.GetIndex(), last.GetTerm()
	return nil
}

// raftState is the RaftLocalState to persist.
func (ps *peerStorage) raftState() *raftserverpb.RaftLocalState {
	return &raftserverpb.RaftLocalState{
		HardState: proto.Clone(ps.hardState).(*raftpb.HardState),
		LastIndex: ps.lastIndex, LastTerm: ps.lastTerm,
	}
}

// saveRaftState writes the RaftLocalState into wb.
func (ps *peerStorage) saveRaftState(wb *pebble.Batch) error {
	b, err := proto.Marshal(ps.raftState())
	if err != nil {
		return err
	}
	return wb.Set(raftStateKey(ps.regionID), b, nil)
}

// compactTo forgets the log up to index (inclusive, term given) after a
// CompactLog applied: deletes the entries from raftdb in wb.
func (ps *peerStorage) compactTo(wb *pebble.Batch, index, term uint64) error {
	if index <= ps.truncated.Index {
		return nil
	}
	if index > ps.lastIndex {
		index, term = ps.lastIndex, ps.lastTerm
	}
	if err := wb.DeleteRange(raftLogKey(ps.regionID, 0), raftLogKey(ps.regionID, index+1), nil); err != nil {
		return err
	}
	ps.truncated.Index, ps.truncated.Term = index, term
	if len(ps.cache) > 0 && ps.cache[0].GetIndex() <= index {
		if index >= ps.lastIndex {
			ps.cache = nil
		} else {
			ps.cache = append([]*raftpb.Entry(nil), ps.cache[index+1-ps.cache[0].GetIndex():]...)
		}
	}
	return nil
}

// applySnapshotMeta resets the log to the snapshot's position: everything
// up to its index is gone, the next entry is index+1.
func (ps *peerStorage) applySnapshotMeta(wb *pebble.Batch, meta *raftpb.SnapshotMetadata) error {
	if err := wb.DeleteRange(raftLogKey(ps.regionID, 0), raftLogKey(ps.regionID, ps.lastIndex+1), nil); err != nil {
		return err
	}
	ps.truncated.Index, ps.truncated.Term = meta.GetIndex(), meta.GetTerm()
	ps.lastIndex, ps.lastTerm = meta.GetIndex(), meta.GetTerm()
	ps.cache = nil
	ps.confState = proto.Clone(meta.GetConfState()).(*raftpb.ConfState)
	if ps.hardState.GetCommit() < meta.GetIndex() {
		ps.hardState.Commit = proto.Uint64(meta.GetIndex())
	}
	return nil
}

// confStateOf derives raft's ConfState from a region's peers.
func confStateOf(r *kvrpcpb.Region) *raftpb.ConfState {
	cs := &raftpb.ConfState{}
	for _, p := range r.GetPeers() {
		switch p.GetRole() {
		case kvrpcpb.PeerRole_Voter:
			cs.Voters = append(cs.Voters, p.GetId())
		case kvrpcpb.PeerRole_Learner:
			cs.Learners = append(cs.Learners, p.GetId())
		case kvrpcpb.PeerRole_IncomingVoter:
			cs.Voters = append(cs.Voters, p.GetId())
		case kvrpcpb.PeerRole_DemotingVoter:
			cs.Voters = append(cs.Voters, p.GetId())
		}
	}
	return cs
}

// loadRaftState reads a region's RaftLocalState from raftdb (nil if none).
func loadRaftState(db *pebble.DB, regionID uint64) (*raftserverpb.RaftLocalState, error) {
	v, closer, err := db.Get(raftStateKey(regionID))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	st := &raftserverpb.RaftLocalState{}
	if err := proto.Unmarshal(v, st); err != nil {
		return nil, fmt.Errorf("raftstore: region %d: corrupt raft state: %w", regionID, err)
	}
	return st, nil
}

// truncState is the log position below which entries are gone.
type truncState struct{ Index, Term uint64 }
