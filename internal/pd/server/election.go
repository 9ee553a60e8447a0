package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/protobuf/proto"
)

// campaignLoop runs until Close: follow the leader while there is one,
// campaign when there is none, lead when elected.
func (s *Server) campaignLoop() {
	defer s.wg.Done()
	for s.ctx.Err() == nil {
		if err := s.campaignOnce(); err != nil && s.ctx.Err() == nil {
			s.log.Warn("pd: election round failed", "err", err)
			_ = sleepCtx(s.ctx, 200*time.Millisecond)
		}
	}
}

// campaignOnce is one round: it returns when the leader it followed is
// gone, when a campaign was lost, or when this member's term ended.
func (s *Server) campaignOnce() error {
	resp, err := s.cli.Get(s.ctx, keyLeader)
	if err != nil {
		return err
	}
	if len(resp.Kvs) > 0 {
		kv := resp.Kvs[0]
		m := &pdpb.Member{}
		if err := proto.Unmarshal(kv.Value, m); err != nil {
			return fmt.Errorf("%w: leader key: %v", ErrCorrupt, err)
		}
		if m.GetMemberId() == s.memberID {
			// Left by an earlier term of this member (a restart after kill -9,
			// or a term given up): nobody serves under it, so clear it
			// rather than wait for its lease to run out.
			s.log.Info("pd: clearing this member's old leader key")
			_, err := s.cli.Txn(s.ctx).
				If(clientv3.Compare(clientv3.CreateRevision(keyLeader), "=", kv.CreateRevision)).
				Then(clientv3.OpDelete(keyLeader)).Commit()
			return err
		}
		s.leader.Store(m)
		return s.followUntilGone(resp.Header.Revision)
	}
	s.leader.Store(nil)
	return s.campaign()
}

// followUntilGone waits until the leader key read at rev changes in any
// way (deleted, replaced or overwritten); the caller reads it again.
func (s *Server) followUntilGone(rev int64) error {
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	for wresp := range s.cli.Watch(ctx, keyLeader, clientv3.WithRev(rev+1)) {
		if err := wresp.Err(); err != nil {
			return err
		}
		if len(wresp.Events) > 0 {
			return nil
		}
	}
	return s.ctx.Err()
}

// campaign tries to create the leader key under a fresh lease, and leads
// if it did.
func (s *Server) campaign() error {
	ttl := int64((s.cfg.LeaderLease + time.Second - 1) / time.Second)
	grantedAt := s.mono()
	lease, err := s.cli.Grant(s.ctx, ttl)
	if err != nil {
		return err
	}
	self, err := proto.Marshal(s.self)
	if err != nil {
		return err
	}
	resp, err := s.cli.Txn(s.ctx).
		If(clientv3.Compare(clientv3.CreateRevision(keyLeader), "=", 0)).
		Then(clientv3.OpPut(keyLeader, string(self), clientv3.WithLease(lease.ID))).Commit()
	if err != nil || !resp.Succeeded {
		s.revoke(lease.ID)
		return err
	}
	return s.lead(resp.Header.Revision, string(self), lease.ID, time.Duration(lease.TTL)*time.Second, grantedAt)
}

// revoke gives up a lease (deleting the leader key if it holds it), best
// effort.
func (s *Server) revoke(id clientv3.LeaseID) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, _ = s.cli.Revoke(ctx, id)
}

// lead serves one term: keep the lease alive, load the state, serve until
// the term is lost or the server closes, then step down.
func (s *Server) lead(createRev int64, self string, lease clientv3.LeaseID, ttl time.Duration, grantedAt int64) error {
	t := s.newTerm(createRev, self, lease, ttl, grantedAt)
	kaDone := make(chan struct{})
	go func() {
		defer close(kaDone)
		t.keepAlive()
	}()
	if err := t.load(); err != nil {
		t.cancel()
		<-kaDone
		s.revoke(lease)
		return fmt.Errorf("pd: starting leader term: %w", err)
	}
	s.leader.Store(s.self)
	s.term.Store(t)
	s.metrics.isLeader.Set(1)
	s.log.Info("pd: became leader", "lease-ttl", ttl, "regions", t.cluster.RegionCount(), "bootstrapped", t.bootstrapped.Load())

	go t.storage.run()
	go t.coord.Run(t.ctx)
	watchErr := t.watchLeaderKey()

	// Step down: stop serving first, then clean up.
	s.term.CompareAndSwap(t, nil)
	s.metrics.isLeader.Set(0)
	clean := s.ctx.Err() != nil && t.withinLease()
	t.cancel()
	<-kaDone
	t.storage.close(clean)
	s.revoke(lease)
	s.leader.CompareAndSwap(s.self, nil)
	s.log.Info("pd: stepped down", "clean", clean, "err", watchErr)
	return nil
}

// watchLeaderKey returns when the term ends: lost, the server closing, or
// the leader key no longer being this term's.
func (t *term) watchLeaderKey() error {
	rev := t.createRev
	for {
		wch := t.s.cli.Watch(t.ctx, keyLeader, clientv3.WithRev(rev+1))
	events:
		for {
			select {
			case <-t.lost:
				return nil
			case <-t.s.ctx.Done():
				return nil
			case wresp, ok := <-wch:
				if !ok {
					break events
				}
				if err := wresp.Err(); err != nil {
					break events
				}
				for _, ev := range wresp.Events {
					if ev.Type == clientv3.EventTypeDelete || ev.Kv.CreateRevision != t.createRev || string(ev.Kv.Value) != t.self {
						t.lose("leader key changed")
						return nil
					}
				}
				if wresp.Header.Revision > rev {
					rev = wresp.Header.Revision
				}
			}
		}
		// The watch broke (compaction, etcd restart): check the key, then
		// watch again.
		ctx, cancel := context.WithTimeout(t.ctx, t.ttl)
		resp, err := t.s.cli.Get(ctx, keyLeader)
		cancel()
		if err == nil {
			if len(resp.Kvs) == 0 || resp.Kvs[0].CreateRevision != t.createRev || string(resp.Kvs[0].Value) != t.self {
				t.lose("leader key changed")
				return nil
			}
			rev = resp.Header.Revision
		} else if err := sleepCtx(t.ctx, 100*time.Millisecond); err != nil {
			return nil
		}
	}
}

// keepAlive renews the lease every third of its TTL, moving the deadline
// to the send time of each granted renewal plus the TTL; the term is lost
// when the lease is gone or the deadline passes.
func (t *term) keepAlive() {
	every := t.ttl / 3
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-t.ctx.Done():
			return
		case <-t.lost:
			return
		case <-tick.C:
		}
		sent := t.s.mono()
		ctx, cancel := context.WithTimeout(t.ctx, every)
		resp, err := t.s.cli.KeepAliveOnce(ctx, t.lease)
		cancel()
		switch {
		case errors.Is(err, rpctypes.ErrLeaseNotFound):
			t.lose("lease expired")
			return
		case err != nil:
			if t.s.mono() >= t.deadline.Load() {
				t.lose("lease not renewed in time: " + err.Error())
				return
			}
		case resp.TTL <= 0:
			t.lose("lease expired")
			return
		default:
			if d := sent + int64(time.Duration(resp.TTL)*time.Second); d > t.deadline.Load() {
				t.deadline.Store(d)
			}
		}
	}
}
