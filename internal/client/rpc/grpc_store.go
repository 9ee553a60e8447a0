package rpc

import (
	"context"
	"fmt"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

type (
	batchReq  = kvrpcpb.BatchCommandsRequest_Request
	batchResp = kvrpcpb.BatchCommandsResponse_Response
)

// call sends req on one of the store's streams and unwraps the response
// with get, which returns nil when the response is of another kind.
func call[R comparable](ctx context.Context, s *grpcStore, req *batchReq, get func(*batchResp) R) (R, error) {
	var zero R
	resp, err := s.pick().call(ctx, req)
	if err != nil {
		return zero, err
	}
	r := get(resp)
	if r == zero {
		return zero, fmt.Errorf("rpc: store %s: unexpected batch response %T", s.addr, resp.GetCmd())
	}
	return r, nil
}

// KvGet implements StoreAPI.
func (s *grpcStore) KvGet(ctx context.Context, r *kvrpcpb.GetRequest) (*kvrpcpb.GetResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_Get{Get: r}}, (*batchResp).GetGet)
}

// KvBatchGet implements StoreAPI.
func (s *grpcStore) KvBatchGet(ctx context.Context, r *kvrpcpb.BatchGetRequest) (*kvrpcpb.BatchGetResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_BatchGet{BatchGet: r}}, (*batchResp).GetBatchGet)
}

// KvScan implements StoreAPI.
func (s *grpcStore) KvScan(ctx context.Context, r *kvrpcpb.ScanRequest) (*kvrpcpb.ScanResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_Scan{Scan: r}}, (*batchResp).GetScan)
}

// KvPrewrite implements StoreAPI.
func (s *grpcStore) KvPrewrite(ctx context.Context, r *kvrpcpb.PrewriteRequest) (*kvrpcpb.PrewriteResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_Prewrite{Prewrite: r}}, (*batchResp).GetPrewrite)
}

// KvCommit implements StoreAPI.
func (s *grpcStore) KvCommit(ctx context.Context, r *kvrpcpb.CommitRequest) (*kvrpcpb.CommitResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_Commit{Commit: r}}, (*batchResp).GetCommit)
}

// KvBatchRollback implements StoreAPI.
func (s *grpcStore) KvBatchRollback(ctx context.Context, r *kvrpcpb.BatchRollbackRequest) (*kvrpcpb.BatchRollbackResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_BatchRollback{BatchRollback: r}}, (*batchResp).GetBatchRollback)
}

// KvCleanup implements StoreAPI.
func (s *grpcStore) KvCleanup(ctx context.Context, r *kvrpcpb.CleanupRequest) (*kvrpcpb.CleanupResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_Cleanup{Cleanup: r}}, (*batchResp).GetCleanup)
}

// KvCheckTxnStatus implements StoreAPI.
func (s *grpcStore) KvCheckTxnStatus(ctx context.Context, r *kvrpcpb.CheckTxnStatusRequest) (*kvrpcpb.CheckTxnStatusResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_CheckTxnStatus{CheckTxnStatus: r}}, (*batchResp).GetCheckTxnStatus)
}

// KvCheckSecondaryLocks implements StoreAPI.
func (s *grpcStore) KvCheckSecondaryLocks(ctx context.Context, r *kvrpcpb.CheckSecondaryLocksRequest) (*kvrpcpb.CheckSecondaryLocksResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_CheckSecondaryLocks{CheckSecondaryLocks: r}}, (*batchResp).GetCheckSecondaryLocks)
}

// KvResolveLock implements StoreAPI.
func (s *grpcStore) KvResolveLock(ctx context.Context, r *kvrpcpb.ResolveLockRequest) (*kvrpcpb.ResolveLockResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_ResolveLock{ResolveLock: r}}, (*batchResp).GetResolveLock)
}

// KvTxnHeartBeat implements StoreAPI.
func (s *grpcStore) KvTxnHeartBeat(ctx context.Context, r *kvrpcpb.TxnHeartBeatRequest) (*kvrpcpb.TxnHeartBeatResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_TxnHeartBeat{TxnHeartBeat: r}}, (*batchResp).GetTxnHeartBeat)
}

// KvScanLock implements StoreAPI.
func (s *grpcStore) KvScanLock(ctx context.Context, r *kvrpcpb.ScanLockRequest) (*kvrpcpb.ScanLockResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_ScanLock{ScanLock: r}}, (*batchResp).GetScanLock)
}

// KvPessimisticLock implements StoreAPI.
func (s *grpcStore) KvPessimisticLock(ctx context.Context, r *kvrpcpb.PessimisticLockRequest) (*kvrpcpb.PessimisticLockResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_PessimisticLock{PessimisticLock: r}}, (*batchResp).GetPessimisticLock)
}

// KvPessimisticRollback implements StoreAPI.
func (s *grpcStore) KvPessimisticRollback(ctx context.Context, r *kvrpcpb.PessimisticRollbackRequest) (*kvrpcpb.PessimisticRollbackResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_PessimisticRollback{PessimisticRollback: r}}, (*batchResp).GetPessimisticRollback)
}

// Coprocessor implements StoreAPI.
func (s *grpcStore) Coprocessor(ctx context.Context, r *kvrpcpb.CoprocessorRequest) (*kvrpcpb.CoprocessorResponse, error) {
	return call(ctx, s, &batchReq{Cmd: &kvrpcpb.BatchCommandsRequest_Request_Coprocessor{Coprocessor: r}}, (*batchResp).GetCoprocessor)
}

// SplitRegion implements kvrpcpb.RegionSplitter: a plain unary call (a
// rare admin request; it waits for the split to apply).
func (s *grpcStore) SplitRegion(ctx context.Context, r *kvrpcpb.SplitRegionRequest) (*kvrpcpb.SplitRegionResponse, error) {
	return s.conns[0].client.SplitRegion(ctx, r)
}
