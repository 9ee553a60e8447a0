package server

import (
	"errors"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

// RaftHandler receives what other stores send: raft messages and
// snapshots (the raftstore's Store).
type RaftHandler interface {
	OnRaftMessage(m *raftserverpb.RaftMessage)
	OnSnapshot(m *raftserverpb.RaftMessage, payload []byte) error
}

// MaxSnapshotSize bounds one received snapshot's payload.
const MaxSnapshotSize = 2 << 30

// RegisterRaftService serves the Raft service of h on g; its streams end
// when draining is closed (the node is stopping).
func RegisterRaftService(g *grpc.Server, h RaftHandler, draining <-chan struct{}) {
	raftserverpb.RegisterRaftServer(g, &raftService{h: h, draining: draining})
}

type raftService struct {
	h        RaftHandler
	draining <-chan struct{}
}

// Raft implements raftserverpb.RaftServer: a long-lived stream of
// message batches from one store. It ends when the sender closes it or
// this node starts stopping (the sender reconnects elsewhere or later).
func (r *raftService) Raft(stream raftserverpb.Raft_RaftServer) error {
	errc := make(chan error, 1)
	go func() {
		for {
			b, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				errc <- stream.SendAndClose(&raftserverpb.Done{})
				return
			}
			if err != nil {
				errc <- err
				return
			}
			for _, m := range b.GetMsgs() {
				r.h.OnRaftMessage(m)
			}
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-r.draining:
		return status.Error(codes.Unavailable, "store is stopping")
	}
}

// Snapshot implements raftserverpb.RaftServer: one snapshot in chunks,
// the first carrying its raft message.
func (r *raftService) Snapshot(stream raftserverpb.Raft_SnapshotServer) error {
	var msg *raftserverpb.RaftMessage
	var payload []byte
	for {
		c, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if c.GetMessage() != nil && msg == nil {
			msg = c.GetMessage()
		}
		if len(payload)+len(c.GetData()) > MaxSnapshotSize {
			return status.Error(codes.ResourceExhausted, "snapshot too large")
		}
		payload = append(payload, c.GetData()...)
	}
	if msg == nil {
		return status.Error(codes.InvalidArgument, "snapshot without its raft message")
	}
	if err := r.h.OnSnapshot(msg, payload); err != nil {
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	return stream.SendAndClose(&raftserverpb.Done{})
}
