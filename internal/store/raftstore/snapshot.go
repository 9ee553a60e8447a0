package raftstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"go.etcd.io/raft/v3"
	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// genSnapshot is a snapshot generated for followers: raft's message part
// and the region's key-value pairs as of its index.
type genSnapshot struct {
	snap    *raftpb.Snapshot
	region  *kvrpcpb.Region // as of the snapshot
	payload []byte
}

// snapKey names a received snapshot until raft applies it.
type snapKey struct{ region, index, term uint64 }

type receivedSnap struct {
	data    *raftserverpb.SnapshotData
	payload []byte
	at      time.Time
}

// snapshotKeep is how long a received snapshot waits for raft to apply it.
const snapshotKeep = 2 * time.Minute

// snapshotForRaft is peerStorage.Snapshot: the generated snapshot if it
// is recent enough, else generation starts and raft retries later. Loop
// goroutine.
func (p *peer) snapshotForRaft() (*raftpb.Snapshot, error) {
	if g := p.genSnap; g != nil && g.snap.GetMetadata().GetIndex() >= p.ps.truncated.Index &&
		!epochChanged(g.region, p.Region()) {
		return g.snap, nil
	}
	p.genSnap = nil // too old, or from before a conf change or split
	if !p.generating {
		p.generating = true
		p.applier.submit(&applyTask{p: p, fn: func() { p.generateSnapshot() }})
	}
	return nil, raft.ErrSnapshotTemporarilyUnavailable
}

// generateSnapshot runs on the apply worker, between applies: it pins a
// kvdb snapshot at the applied index and builds the payload from it in
// the background.
func (p *peer) generateSnapshot() {
	region := proto.Clone(p.ap.region).(*kvrpcpb.Region)
	index, term := p.ap.applied, p.ap.appliedT
	snap := p.s.kvdb.NewSnapshot()
	started := p.s.goBackground(func() {
		defer snap.Close()
		payload, n, err := buildSnapshotPayload(snap, region)
		if err != nil {
			p.s.log.Warn("raftstore: snapshot generation failed", "region", p.regionID, "err", err)
			p.post(msgSnapGenFail{})
			return
		}
		data, _ := proto.Marshal(&raftserverpb.SnapshotData{
			Region: region, FileSize: uint64(len(payload)), KeyCount: n, Checksum: uint64(crc32.Checksum(payload, crcTable)),
		})
		cs := confStateOf(region)
		rs := &raftpb.Snapshot{Data: data, Metadata: &raftpb.SnapshotMetadata{
			ConfState: cs, Index: proto.Uint64(index), Term: proto.Uint64(term),
		}}
		p.s.metrics.snapshotGenerated()
		p.post(msgSnapGen{&genSnapshot{snap: rs, region: region, payload: payload}})
	})
	if !started {
		snap.Close()
	}
}

// buildSnapshotPayload encodes every engine pair of region's key ranges:
// uvarint key length, key, uvarint value length, value.
func buildSnapshotPayload(snap *pebble.Snapshot, region *kvrpcpb.Region) ([]byte, uint64, error) {
	var buf []byte
	var n uint64
	for _, rg := range mvcc.EngineRanges(region.GetStartKey(), region.GetEndKey()) {
		it, err := snap.NewIter(&pebble.IterOptions{LowerBound: rg[0], UpperBound: rg[1]})
		if err != nil {
			return nil, 0, err
		}
		for ok := it.First(); ok; ok = it.Next() {
			v, err := it.ValueAndErr()
			if err != nil {
				it.Close()
				return nil, 0, err
			}
			buf = binary.AppendUvarint(buf, uint64(len(it.Key())))
			buf = append(buf, it.Key()...)
			buf = binary.AppendUvarint(buf, uint64(len(v)))
			buf = append(buf, v...)
			n++
		}
		if err := it.Close(); err != nil {
			return nil, 0, err
		}
	}
	return buf, n, nil
}

// sendSnapshot streams the generated snapshot of the MsgSnap in rm to
// its store and reports the outcome to raft. Loop goroutine.
func (s *Store) sendSnapshot(p *peer, to *kvrpcpb.Peer, rm *raftserverpb.RaftMessage) {
	g := p.genSnap
	md := rm.GetMessage().GetSnapshot().GetMetadata()
	if g == nil || g.snap.GetMetadata().GetIndex() != md.GetIndex() || findPeer(g.region, to.GetId()) == nil {
		// Not the snapshot raft means, or one from before the target was
		// added: make raft ask for a new one.
		p.genSnap = nil
		p.rn.ReportSnapshot(to.GetId(), raft.SnapshotFailure)
		return
	}
	s.metrics.snapshotSent()
	toID := to.GetId()
	s.trans.SendSnapshot(to.GetStoreId(), rm, g.payload, func(err error) {
		if err != nil {
			s.log.Info("raftstore: snapshot not delivered", "region", p.regionID, "to", toID, "err", err)
		}
		p.post(msgSnapStatus{to: toID, failed: err != nil})
		if err != nil {
			p.post(msgUnreachable{to: toID})
		}
	})
}

// OnSnapshot receives a snapshot from another store: it keeps the payload
// until raft applies it and steps the MsgSnap into the target peer.
func (s *Store) OnSnapshot(m *raftserverpb.RaftMessage, payload []byte) error {
	if s.isolated.Load() {
		return errUnreachable
	}
	md := m.GetMessage().GetSnapshot().GetMetadata()
	data := &raftserverpb.SnapshotData{}
	if err := proto.Unmarshal(m.GetMessage().GetSnapshot().GetData(), data); err != nil {
		return fmt.Errorf("raftstore: bad snapshot data: %w", err)
	}
	if uint64(len(payload)) != data.GetFileSize() || uint64(crc32.Checksum(payload, crcTable)) != data.GetChecksum() {
		return errors.New("raftstore: snapshot payload corrupt")
	}
	if data.GetRegion().GetId() != m.GetRegionId() || findPeer(data.GetRegion(), m.GetToPeer().GetId()) == nil {
		return errors.New("raftstore: snapshot does not name its target peer")
	}
	r := data.GetRegion()
	if s.overlapsInitialized(r.GetId(), r.GetStartKey(), r.GetEndKey()) {
		// Raft must not accept it: applying it would fail.
		return errors.New("raftstore: snapshot overlaps a region of this store")
	}
	key := snapKey{m.GetRegionId(), md.GetIndex(), md.GetTerm()}
	now := time.Now()
	s.mu.Lock()
	for k, rs := range s.mu.snaps {
		if now.Sub(rs.at) > snapshotKeep {
			delete(s.mu.snaps, k) // raft never applied it
		}
	}
	s.mu.snaps[key] = &receivedSnap{data: data, payload: payload, at: now}
	s.mu.Unlock()
	s.metrics.snapshotReceived()
	s.OnRaftMessage(m)
	return nil
}

func (s *Store) takeSnapshot(k snapKey) *receivedSnap {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.mu.snaps[k]
	delete(s.mu.snaps, k)
	return rs
}

// applySnapshot replaces the region's data with a received snapshot, in
// one synced kvdb batch with the region and apply state, before raftdb
// records the snapshot (a restart in between finds kvdb ahead and
// resets the log to it). Loop goroutine; the apply worker runs it after
// every earlier committed entry.
func (p *peer) applySnapshot(snap *raftpb.Snapshot) error {
	md := snap.GetMetadata()
	rs := p.s.takeSnapshot(snapKey{p.regionID, md.GetIndex(), md.GetTerm()})
	if rs == nil {
		return fmt.Errorf("raftstore: region %d: snapshot %d/%d payload missing", p.regionID, md.GetIndex(), md.GetTerm())
	}
	region := rs.data.GetRegion()
	if !p.s.reserveRange(p.regionID, region) {
		return fmt.Errorf("raftstore: region %d: snapshot overlaps another region here", p.regionID)
	}
	defer p.s.releaseRange(p.regionID)
	errc := make(chan error, 1)
	done := make(chan struct{})
	p.applier.submit(&applyTask{p: p, done: done, fn: func() { errc <- p.installSnapshot(region, md, rs.payload) }})
	select {
	case <-done:
	case <-p.s.stopped:
		return ErrStopped
	}
	if err := <-errc; err != nil {
		return err
	}
	p.setRegion(region)
	p.initialized.Store(true)
	p.s.onRegionChanged(p)
	if p.s.observer != nil {
		p.s.observer.RangeReset(region.GetStartKey(), region.GetEndKey())
	}
	p.setApplied(md.GetIndex(), md.GetTerm())
	// Proposals still pending (a deposed leader's) may be inside the
	// snapshot or not: no entry of theirs will apply here one by one.
	p.failAll(errUndetermined("a snapshot replaced the log before the write applied"))
	p.downTicks = -1
	p.s.metrics.snapshotApplied()
	return nil
}

// installSnapshot writes a snapshot into kvdb. Apply worker.
func (p *peer) installSnapshot(region *kvrpcpb.Region, md *raftpb.SnapshotMetadata, payload []byte) error {
	if o := p.s.observer; o != nil {
		o.DataReplacing()
		defer o.DataReplaced()
	}
	wb := p.s.kvdb.NewBatch()
	defer wb.Close()
	old := p.ap.region
	for _, r := range []*kvrpcpb.Region{old, region} {
		if r != old || p.initialized.Load() {
			for _, rg := range mvcc.EngineRanges(r.GetStartKey(), r.GetEndKey()) {
				if err := wb.DeleteRange(rg[0], rg[1], nil); err != nil {
					return err
				}
			}
		}
	}
	for rest := payload; len(rest) > 0; {
		k, r1, ok := readChunk(rest)
		if !ok {
			return errors.New("raftstore: snapshot payload truncated")
		}
		v, r2, ok := readChunk(r1)
		if !ok {
			return errors.New("raftstore: snapshot payload truncated")
		}
		if err := wb.Set(k, v, nil); err != nil {
			return err
		}
		rest = r2
	}
	b, _ := proto.Marshal(&raftserverpb.RegionLocalState{State: raftserverpb.PeerState_Normal, Region: region})
	_ = wb.Set(regionStateKey(p.regionID), b, nil)
	b, _ = proto.Marshal(&raftserverpb.RaftApplyState{
		AppliedIndex: md.GetIndex(), AppliedTerm: md.GetTerm(),
		TruncatedState: &raftserverpb.RaftTruncatedState{Index: md.GetIndex(), Term: md.GetTerm()},
	})
	_ = wb.Set(applyStateKey(p.regionID), b, nil)
	if err := wb.Commit(pebble.Sync); err != nil {
		return err
	}
	p.ap.region = region
	p.ap.applied, p.ap.appliedT = md.GetIndex(), md.GetTerm()
	p.ap.truncated = truncState{md.GetIndex(), md.GetTerm()}
	return nil
}

func readChunk(b []byte) (chunk, rest []byte, ok bool) {
	n, w := binary.Uvarint(b)
	if w <= 0 || uint64(len(b)-w) < n {
		return nil, nil, false
	}
	return b[w : w+int(n)], b[w+int(n):], true
}

// destroyPeer removes p from this store: a tombstone with the region's
// last epoch, its raft state and log gone, its data deleted unless
// another region here now owns the range.
func (s *Store) destroyPeer(p *peer, region *kvrpcpb.Region) {
	s.mu.RLock()
	registered := s.mu.peers[p.regionID] == p
	s.mu.RUnlock()
	if !registered {
		// Already destroyed (a second request), or replaced by a newer
		// peer of the region whose state and data must not be touched.
		return
	}
	if region == nil {
		region = p.Region()
	}
	wasInit := p.initialized.Load()
	s.removePeer(p)
	b, _ := proto.Marshal(&raftserverpb.RegionLocalState{State: raftserverpb.PeerState_Tombstone, Region: region})
	if o := s.observer; o != nil {
		o.DataReplacing()
		defer o.DataReplaced()
	}
	wb := s.kvdb.NewBatch()
	_ = wb.Set(regionStateKey(p.regionID), b, nil)
	_ = wb.Delete(applyStateKey(p.regionID), nil)
	if wasInit && !s.overlapsInitialized(p.regionID, region.GetStartKey(), region.GetEndKey()) {
		for _, rg := range mvcc.EngineRanges(region.GetStartKey(), region.GetEndKey()) {
			_ = wb.DeleteRange(rg[0], rg[1], nil)
		}
	}
	if err := wb.Commit(pebble.Sync); err != nil {
		s.log.Error("raftstore: destroy peer", "region", p.regionID, "err", err)
	}
	wb.Close()
	s.writer.flush() // no queued round of the peer lands after the delete
	rb := s.raftdb.NewBatch()
	lo, hi := raftLogBounds(p.regionID)
	_ = rb.DeleteRange(lo, hi, nil)
	_ = rb.Delete(raftStateKey(p.regionID), nil)
	_ = rb.Commit(pebble.Sync)
	rb.Close()
	if wasInit && s.observer != nil && !bytes.Equal(region.GetStartKey(), region.GetEndKey()) {
		s.observer.RangeReset(region.GetStartKey(), region.GetEndKey())
	}
	s.log.Info("raftstore: peer destroyed", "region", p.regionID, "peer", p.peerID)
}

// epochChanged reports whether b's epoch differs from a's.
func epochChanged(a, b *kvrpcpb.Region) bool {
	ea, eb := a.GetRegionEpoch(), b.GetRegionEpoch()
	return ea.GetConfVer() != eb.GetConfVer() || ea.GetVersion() != eb.GetVersion()
}

// reserveRange claims region's range for a snapshot install: it fails if
// an initialized region other than region's own, or another install in
// progress, overlaps it. The check and the claim happen under one lock,
// so two installs of overlapping ranges never run at once.
func (s *Store) reserveRange(id uint64, region *kvrpcpb.Region) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	start, end := region.GetStartKey(), region.GetEndKey()
	for other, r := range s.mu.installing {
		if other != id && rangesOverlap(r.GetStartKey(), r.GetEndKey(), start, end) {
			return false
		}
	}
	if s.overlapsInitializedLocked(id, start, end) {
		return false
	}
	s.mu.installing[id] = region
	return true
}

// releaseRange ends reserveRange's claim.
func (s *Store) releaseRange(id uint64) {
	s.mu.Lock()
	delete(s.mu.installing, id)
	s.mu.Unlock()
}
