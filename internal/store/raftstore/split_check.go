package raftstore

import (
	"bytes"
	"context"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// scheduleSplitCheck measures p's region off the loop and splits it when
// it is above RegionMaxSize or RegionMaxKeys. At most one check runs per
// peer at a time.
func (s *Store) scheduleSplitCheck(p *peer) {
	if !p.splitChecking.CompareAndSwap(false, true) {
		return
	}
	region := p.Region()
	// What applies from now on counts towards the next estimate.
	p.sizeDiff.Store(0)
	p.keysDiff.Store(0)
	started := s.goBackground(func() {
		defer p.splitChecking.Store(false)
		size, keys, splitKeys := s.measureRegion(region)
		p.approxSize.Store(size)
		p.approxKeys.Store(keys)
		p.measured.Store(true)
		if len(splitKeys) == 0 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := s.SplitRegion(ctx, region.GetId(), splitKeys); err != nil {
			s.log.Info("raftstore: split", "region", region.GetId(), "err", err)
		} else {
			s.log.Info("raftstore: region split", "region", region.GetId(), "pieces", len(splitKeys)+1)
		}
	})
	if !started {
		p.splitChecking.Store(false)
	}
}

// maxSplitKeys bounds the pieces one split makes.
const maxSplitKeys = 10

// measureRegion scans region's data and returns its size in bytes, its
// user keys, and the split keys if it is too big: user-key boundaries at
// every RegionSplitSize bytes (or RegionSplitKeys keys), never between
// versions of one key.
func (s *Store) measureRegion(region *kvrpcpb.Region) (size, keys uint64, splitKeys [][]byte) {
	snap := s.kvdb.NewSnapshot()
	defer snap.Close()
	ranges := mvcc.EngineRanges(region.GetStartKey(), region.GetEndKey())
	// The data space (long values) and lock space count towards the size
	// but not towards where to cut.
	var other uint64
	for _, rg := range ranges[:2] {
		it, err := snap.NewIter(&pebble.IterOptions{LowerBound: rg[0], UpperBound: rg[1]})
		if err != nil {
			return 0, 0, nil
		}
		for ok := it.First(); ok; ok = it.Next() {
			other += uint64(len(it.Key()) + len(it.Value()))
		}
		it.Close()
	}
	lo, hi := ranges[2][0], ranges[2][1]
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return 0, 0, nil
	}
	defer it.Close()
	cfg := &s.cfg
	var writeBytes uint64
	type mark struct {
		key         []byte
		bytes, keys uint64
	}
	var marks []mark // a user key every so often, to place cuts later
	var last []byte
	for ok := it.First(); ok; ok = it.Next() {
		writeBytes += uint64(len(it.Key()) + len(it.Value()))
		uk, ok := mvcc.DecodeWriteUserKey(it.Key())
		if !ok || bytes.Equal(uk, last) {
			continue
		}
		last = append(last[:0], uk...)
		keys++
		if keys%64 == 0 {
			marks = append(marks, mark{bytes.Clone(uk), writeBytes, keys})
		}
	}
	size = writeBytes + other
	if size <= cfg.RegionMaxSize && keys <= cfg.RegionMaxKeys || len(marks) == 0 {
		return size, keys, nil
	}
	// Scale write-space bytes to the whole region's.
	scale := float64(size) / float64(max(writeBytes, 1))
	var nextBytes, nextKeys = float64(cfg.RegionSplitSize), cfg.RegionSplitKeys
	prev := region.GetStartKey()
	for _, m := range marks {
		if float64(m.bytes)*scale >= nextBytes || m.keys >= nextKeys {
			if size-uint64(float64(m.bytes)*scale) < cfg.RegionSplitSize/4 && keys-m.keys < cfg.RegionSplitKeys/4 {
				break // leave no tiny tail region
			}
			k := snapToTable(m.key, prev)
			if bytes.Compare(k, prev) <= 0 {
				continue
			}
			splitKeys = append(splitKeys, k)
			prev = k
			nextBytes = float64(m.bytes)*scale + float64(cfg.RegionSplitSize)
			nextKeys = m.keys + cfg.RegionSplitKeys
			if len(splitKeys) == maxSplitKeys {
				break
			}
		}
	}
	return size, keys, splitKeys
}

// tablePrefixLen is the length of the prefix every key of one SQL table
// starts with: 't' and the table id in 8 memcomparable bytes (see
// internal/codec).
const tablePrefixLen = 9

// snapToTable moves a split key back to the start of the SQL table it
// falls in, when that table starts after prev (the region's start or the
// previous cut): a table then lives in one region, its rows and index
// entries together, so a one-row write stays a one-region (1PC)
// transaction. A table bigger than a region is cut inside (key kept).
func snapToTable(key, prev []byte) []byte {
	if len(key) < tablePrefixLen || key[0] != 't' {
		return key
	}
	start := key[:tablePrefixLen]
	if bytes.Compare(start, prev) > 0 {
		return bytes.Clone(start)
	}
	return key
}
