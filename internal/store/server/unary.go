package server

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// request is what every storage request has: a routing Context (nil-safe
// getter, so a nil request is a request without context).
type request interface{ GetContext() *kvrpcpb.Context }

// handle checks req's region, then runs call, turning a panic into an
// error for this request alone.
func handle[Q request, R any](ctx context.Context, n *Node, method string, req Q,
	call func(context.Context, Q) (R, error), withRegionErr func(*kvrpcpb.RegionError) R) (resp R, err error) {
	ctx, re := n.route(ctx, req)
	if re != nil {
		return withRegionErr(re), nil
	}
	defer func() {
		if p := recover(); p != nil {
			n.log.Error("request panicked", "method", method, "panic", p, "stack", string(debug.Stack()))
			var zero R
			resp, err = zero, fmt.Errorf("server: %s: internal error: %v", method, p)
		}
	}()
	resp, err = call(ctx, req)
	if err != nil {
		if re := regionErrorOf(err); re != nil {
			return withRegionErr(re), nil
		}
	}
	return resp, err
}

// route checks req's region: against the node's Router when it has one
// (the raftstore), else against the single static region.
func (n *Node) route(ctx context.Context, req request) (context.Context, *kvrpcpb.RegionError) {
	if n.opts.Router == nil {
		return ctx, checkContext(n.region, req.GetContext())
	}
	pw, _ := any(req).(*kvrpcpb.PrewriteRequest)
	needMaxTS := pw != nil && (pw.GetUseAsyncCommit() || pw.GetTryOnePc())
	rctx, err := n.opts.Router.Route(ctx, req.GetContext(), needMaxTS)
	if err != nil {
		if re := regionErrorOf(err); re != nil {
			return nil, re
		}
		return nil, &kvrpcpb.RegionError{Message: err.Error(), ServerIsBusy: &kvrpcpb.ServerIsBusy{Reason: err.Error()}}
	}
	return rctx, nil
}

// regionErrorOf returns the region error an error carries (the
// raftstore's errors do), or nil.
func regionErrorOf(err error) *kvrpcpb.RegionError {
	var c interface{ RegionError() *kvrpcpb.RegionError }
	if errors.As(err, &c) {
		return c.RegionError()
	}
	return nil
}

// KvGet implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvGet(ctx context.Context, r *kvrpcpb.GetRequest) (*kvrpcpb.GetResponse, error) {
	return handle(ctx, n, "KvGet", r, n.api.KvGet,
		func(re *kvrpcpb.RegionError) *kvrpcpb.GetResponse { return &kvrpcpb.GetResponse{RegionError: re} })
}

// KvBatchGet implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvBatchGet(ctx context.Context, r *kvrpcpb.BatchGetRequest) (*kvrpcpb.BatchGetResponse, error) {
	return handle(ctx, n, "KvBatchGet", r, n.api.KvBatchGet,
		func(re *kvrpcpb.RegionError) *kvrpcpb.BatchGetResponse {
			return &kvrpcpb.BatchGetResponse{RegionError: re}
		})
}

// KvScan implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvScan(ctx context.Context, r *kvrpcpb.ScanRequest) (*kvrpcpb.ScanResponse, error) {
	return handle(ctx, n, "KvScan", r, n.api.KvScan,
		func(re *kvrpcpb.RegionError) *kvrpcpb.ScanResponse { return &kvrpcpb.ScanResponse{RegionError: re} })
}

// KvPrewrite implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvPrewrite(ctx context.Context, r *kvrpcpb.PrewriteRequest) (*kvrpcpb.PrewriteResponse, error) {
	return handle(ctx, n, "KvPrewrite", r, n.api.KvPrewrite,
		func(re *kvrpcpb.RegionError) *kvrpcpb.PrewriteResponse {
			return &kvrpcpb.PrewriteResponse{RegionError: re}
		})
}

// KvCommit implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvCommit(ctx context.Context, r *kvrpcpb.CommitRequest) (*kvrpcpb.CommitResponse, error) {
	return handle(ctx, n, "KvCommit", r, n.api.KvCommit,
		func(re *kvrpcpb.RegionError) *kvrpcpb.CommitResponse { return &kvrpcpb.CommitResponse{RegionError: re} })
}

// KvBatchRollback implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvBatchRollback(ctx context.Context, r *kvrpcpb.BatchRollbackRequest) (*kvrpcpb.BatchRollbackResponse, error) {
	return handle(ctx, n, "KvBatchRollback", r, n.api.KvBatchRollback,
		func(re *kvrpcpb.RegionError) *kvrpcpb.BatchRollbackResponse {
			return &kvrpcpb.BatchRollbackResponse{RegionError: re}
		})
}

// KvCleanup implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvCleanup(ctx context.Context, r *kvrpcpb.CleanupRequest) (*kvrpcpb.CleanupResponse, error) {
	return handle(ctx, n, "KvCleanup", r, n.api.KvCleanup,
		func(re *kvrpcpb.RegionError) *kvrpcpb.CleanupResponse {
			return &kvrpcpb.CleanupResponse{RegionError: re}
		})
}

// KvCheckTxnStatus implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvCheckTxnStatus(ctx context.Context, r *kvrpcpb.CheckTxnStatusRequest) (*kvrpcpb.CheckTxnStatusResponse, error) {
	return handle(ctx, n, "KvCheckTxnStatus", r, n.api.KvCheckTxnStatus,
		func(re *kvrpcpb.RegionError) *kvrpcpb.CheckTxnStatusResponse {
			return &kvrpcpb.CheckTxnStatusResponse{RegionError: re}
		})
}

// KvCheckSecondaryLocks implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvCheckSecondaryLocks(ctx context.Context, r *kvrpcpb.CheckSecondaryLocksRequest) (*kvrpcpb.CheckSecondaryLocksResponse, error) {
	return handle(ctx, n, "KvCheckSecondaryLocks", r, n.api.KvCheckSecondaryLocks,
		func(re *kvrpcpb.RegionError) *kvrpcpb.CheckSecondaryLocksResponse {
			return &kvrpcpb.CheckSecondaryLocksResponse{RegionError: re}
		})
}

// KvResolveLock implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvResolveLock(ctx context.Context, r *kvrpcpb.ResolveLockRequest) (*kvrpcpb.ResolveLockResponse, error) {
	return handle(ctx, n, "KvResolveLock", r, n.api.KvResolveLock,
		func(re *kvrpcpb.RegionError) *kvrpcpb.ResolveLockResponse {
			return &kvrpcpb.ResolveLockResponse{RegionError: re}
		})
}

// KvTxnHeartBeat implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvTxnHeartBeat(ctx context.Context, r *kvrpcpb.TxnHeartBeatRequest) (*kvrpcpb.TxnHeartBeatResponse, error) {
	return handle(ctx, n, "KvTxnHeartBeat", r, n.api.KvTxnHeartBeat,
		func(re *kvrpcpb.RegionError) *kvrpcpb.TxnHeartBeatResponse {
			return &kvrpcpb.TxnHeartBeatResponse{RegionError: re}
		})
}

// KvScanLock implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvScanLock(ctx context.Context, r *kvrpcpb.ScanLockRequest) (*kvrpcpb.ScanLockResponse, error) {
	return handle(ctx, n, "KvScanLock", r, n.api.KvScanLock,
		func(re *kvrpcpb.RegionError) *kvrpcpb.ScanLockResponse {
			return &kvrpcpb.ScanLockResponse{RegionError: re}
		})
}

// KvPessimisticLock implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvPessimisticLock(ctx context.Context, r *kvrpcpb.PessimisticLockRequest) (*kvrpcpb.PessimisticLockResponse, error) {
	return handle(ctx, n, "KvPessimisticLock", r, n.api.KvPessimisticLock,
		func(re *kvrpcpb.RegionError) *kvrpcpb.PessimisticLockResponse {
			return &kvrpcpb.PessimisticLockResponse{RegionError: re}
		})
}

// KvPessimisticRollback implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) KvPessimisticRollback(ctx context.Context, r *kvrpcpb.PessimisticRollbackRequest) (*kvrpcpb.PessimisticRollbackResponse, error) {
	return handle(ctx, n, "KvPessimisticRollback", r, n.api.KvPessimisticRollback,
		func(re *kvrpcpb.RegionError) *kvrpcpb.PessimisticRollbackResponse {
			return &kvrpcpb.PessimisticRollbackResponse{RegionError: re}
		})
}

// Coprocessor implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
func (n *Node) Coprocessor(ctx context.Context, r *kvrpcpb.CoprocessorRequest) (*kvrpcpb.CoprocessorResponse, error) {
	return handle(ctx, n, "Coprocessor", r, n.api.Coprocessor,
		func(re *kvrpcpb.RegionError) *kvrpcpb.CoprocessorResponse {
			return &kvrpcpb.CoprocessorResponse{RegionError: re}
		})
}
