package raftstore

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// RegionError is a Go error carrying a kvrpcpb.RegionError: the request
// reached the wrong peer, an old epoch, or a peer that cannot serve it
// now. The server puts it in the response's region_error; the client
// re-routes and resends.
type RegionError struct{ Err *kvrpcpb.RegionError }

func (e *RegionError) Error() string { return "raftstore: " + e.Err.GetMessage() }

// RegionError returns the wire form (the server's hook for region errors).
func (e *RegionError) RegionError() *kvrpcpb.RegionError { return e.Err }

// AsRegionError returns the region error inside err, or nil.
func AsRegionError(err error) *kvrpcpb.RegionError {
	var re *RegionError
	if errors.As(err, &re) {
		return re.Err
	}
	return nil
}

func errNotLeader(regionID uint64, leader *kvrpcpb.Peer) error {
	var l *kvrpcpb.Peer
	if leader != nil {
		l = proto.Clone(leader).(*kvrpcpb.Peer)
	}
	return &RegionError{&kvrpcpb.RegionError{
		Message:   fmt.Sprintf("peer is not leader for region %d", regionID),
		NotLeader: &kvrpcpb.NotLeader{RegionId: regionID, Leader: l},
	}}
}

func errRegionNotFound(regionID uint64) error {
	return &RegionError{&kvrpcpb.RegionError{
		Message:        fmt.Sprintf("region %d not found", regionID),
		RegionNotFound: &kvrpcpb.RegionNotFound{RegionId: regionID},
	}}
}

func errEpochNotMatch(msg string, regions ...*kvrpcpb.Region) error {
	cur := make([]*kvrpcpb.Region, 0, len(regions))
	for _, r := range regions {
		if r != nil {
			cur = append(cur, proto.Clone(r).(*kvrpcpb.Region))
		}
	}
	return &RegionError{&kvrpcpb.RegionError{
		Message:       "epoch not match: " + msg,
		EpochNotMatch: &kvrpcpb.EpochNotMatch{CurrentRegions: cur},
	}}
}

func errStaleCommand() error {
	return &RegionError{&kvrpcpb.RegionError{
		Message: "stale command: overtaken by a leader change", StaleCommand: &kvrpcpb.StaleCommand{},
	}}
}

func errStoreNotMatch(want, got uint64) error {
	return &RegionError{&kvrpcpb.RegionError{
		Message:       fmt.Sprintf("store not match: request for %d, this is %d", want, got),
		StoreNotMatch: &kvrpcpb.StoreNotMatch{RequestStoreId: want, ActualStoreId: got},
	}}
}

func errServerIsBusy(reason string) error {
	return &RegionError{&kvrpcpb.RegionError{
		Message: "server is busy: " + reason, ServerIsBusy: &kvrpcpb.ServerIsBusy{Reason: reason, BackoffMs: 20},
	}}
}

func errMaxTSNotSynced(regionID uint64) error {
	return &RegionError{&kvrpcpb.RegionError{
		Message:               fmt.Sprintf("region %d: max_ts not synced since the leader change", regionID),
		MaxTimestampNotSynced: &kvrpcpb.MaxTimestampNotSynced{},
	}}
}

func errKeyNotInRegion(key []byte, r *kvrpcpb.Region) error {
	return &RegionError{&kvrpcpb.RegionError{
		Message: fmt.Sprintf("key %q not in region %d", key, r.GetId()),
		KeyNotInRegion: &kvrpcpb.KeyNotInRegion{
			Key: key, RegionId: r.GetId(), StartKey: r.GetStartKey(), EndKey: r.GetEndKey(),
		},
	}}
}

// ErrStopped is returned for requests after the store stopped.
var ErrStopped = errors.New("raftstore: store stopped")

// errUndetermined: a proposal whose outcome is unknown (it may still
// apply).
func errUndetermined(reason string) error {
	return &RegionError{&kvrpcpb.RegionError{
		Message:            "result undetermined: " + reason,
		UndeterminedResult: &kvrpcpb.UndeterminedResult{Reason: reason},
	}}
}
