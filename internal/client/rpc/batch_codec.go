package rpc

import (
	"context"
	"fmt"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// Dispatch runs one request of a BatchCommands stream against api and wraps
// the reply in the matching response variant. A request without a command
// gets an error, as does an api error (the caller decides how to report it
// on the stream).
func Dispatch(ctx context.Context, api StoreAPI, r *kvrpcpb.BatchCommandsRequest_Request) (*kvrpcpb.BatchCommandsResponse_Response, error) {
	var (
		out kvrpcpb.BatchCommandsResponse_Response
		err error
	)
	switch c := r.GetCmd().(type) {
	case *kvrpcpb.BatchCommandsRequest_Request_Get:
		var x *kvrpcpb.GetResponse
		x, err = api.KvGet(ctx, c.Get)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Get{Get: x}
	case *kvrpcpb.BatchCommandsRequest_Request_BatchGet:
		var x *kvrpcpb.BatchGetResponse
		x, err = api.KvBatchGet(ctx, c.BatchGet)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_BatchGet{BatchGet: x}
	case *kvrpcpb.BatchCommandsRequest_Request_Scan:
		var x *kvrpcpb.ScanResponse
		x, err = api.KvScan(ctx, c.Scan)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Scan{Scan: x}
	case *kvrpcpb.BatchCommandsRequest_Request_Prewrite:
		var x *kvrpcpb.PrewriteResponse
		x, err = api.KvPrewrite(ctx, c.Prewrite)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Prewrite{Prewrite: x}
	case *kvrpcpb.BatchCommandsRequest_Request_Commit:
		var x *kvrpcpb.CommitResponse
		x, err = api.KvCommit(ctx, c.Commit)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Commit{Commit: x}
	case *kvrpcpb.BatchCommandsRequest_Request_BatchRollback:
		var x *kvrpcpb.BatchRollbackResponse
		x, err = api.KvBatchRollback(ctx, c.BatchRollback)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_BatchRollback{BatchRollback: x}
	case *kvrpcpb.BatchCommandsRequest_Request_Cleanup:
		var x *kvrpcpb.CleanupResponse
		x, err = api.KvCleanup(ctx, c.Cleanup)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Cleanup{Cleanup: x}
	case *kvrpcpb.BatchCommandsRequest_Request_CheckTxnStatus:
		var x *kvrpcpb.CheckTxnStatusResponse
		x, err = api.KvCheckTxnStatus(ctx, c.CheckTxnStatus)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_CheckTxnStatus{CheckTxnStatus: x}
	case *kvrpcpb.BatchCommandsRequest_Request_CheckSecondaryLocks:
		var x *kvrpcpb.CheckSecondaryLocksResponse
		x, err = api.KvCheckSecondaryLocks(ctx, c.CheckSecondaryLocks)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_CheckSecondaryLocks{CheckSecondaryLocks: x}
	case *kvrpcpb.BatchCommandsRequest_Request_ResolveLock:
		var x *kvrpcpb.ResolveLockResponse
		x, err = api.KvResolveLock(ctx, c.ResolveLock)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_ResolveLock{ResolveLock: x}
	case *kvrpcpb.BatchCommandsRequest_Request_TxnHeartBeat:
		var x *kvrpcpb.TxnHeartBeatResponse
		x, err = api.KvTxnHeartBeat(ctx, c.TxnHeartBeat)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_TxnHeartBeat{TxnHeartBeat: x}
	case *kvrpcpb.BatchCommandsRequest_Request_ScanLock:
		var x *kvrpcpb.ScanLockResponse
		x, err = api.KvScanLock(ctx, c.ScanLock)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_ScanLock{ScanLock: x}
	case *kvrpcpb.BatchCommandsRequest_Request_PessimisticLock:
		var x *kvrpcpb.PessimisticLockResponse
		x, err = api.KvPessimisticLock(ctx, c.PessimisticLock)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_PessimisticLock{PessimisticLock: x}
	case *kvrpcpb.BatchCommandsRequest_Request_PessimisticRollback:
		var x *kvrpcpb.PessimisticRollbackResponse
		x, err = api.KvPessimisticRollback(ctx, c.PessimisticRollback)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_PessimisticRollback{PessimisticRollback: x}
	case *kvrpcpb.BatchCommandsRequest_Request_Coprocessor:
		var x *kvrpcpb.CoprocessorResponse
		x, err = api.Coprocessor(ctx, c.Coprocessor)
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Coprocessor{Coprocessor: x}
	default:
		return nil, fmt.Errorf("rpc: batch request without a known command (%T)", c)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// RegionErrorResponse returns the response variant matching r's command,
// carrying only re. It reports a request that failed as a whole (a node
// shutting down, a request that panicked) on the batch stream, where there
// is no per-request status. nil for a request without a command.
func RegionErrorResponse(r *kvrpcpb.BatchCommandsRequest_Request, re *kvrpcpb.RegionError) *kvrpcpb.BatchCommandsResponse_Response {
	var out kvrpcpb.BatchCommandsResponse_Response
	switch r.GetCmd().(type) {
	case *kvrpcpb.BatchCommandsRequest_Request_Get:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Get{Get: &kvrpcpb.GetResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_BatchGet:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_BatchGet{BatchGet: &kvrpcpb.BatchGetResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_Scan:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Scan{Scan: &kvrpcpb.ScanResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_Prewrite:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Prewrite{Prewrite: &kvrpcpb.PrewriteResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_Commit:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Commit{Commit: &kvrpcpb.CommitResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_BatchRollback:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_BatchRollback{BatchRollback: &kvrpcpb.BatchRollbackResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_Cleanup:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Cleanup{Cleanup: &kvrpcpb.CleanupResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_CheckTxnStatus:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_CheckTxnStatus{CheckTxnStatus: &kvrpcpb.CheckTxnStatusResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_CheckSecondaryLocks:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_CheckSecondaryLocks{CheckSecondaryLocks: &kvrpcpb.CheckSecondaryLocksResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_ResolveLock:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_ResolveLock{ResolveLock: &kvrpcpb.ResolveLockResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_TxnHeartBeat:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_TxnHeartBeat{TxnHeartBeat: &kvrpcpb.TxnHeartBeatResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_ScanLock:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_ScanLock{ScanLock: &kvrpcpb.ScanLockResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_PessimisticLock:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_PessimisticLock{PessimisticLock: &kvrpcpb.PessimisticLockResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_PessimisticRollback:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_PessimisticRollback{PessimisticRollback: &kvrpcpb.PessimisticRollbackResponse{RegionError: re}}
	case *kvrpcpb.BatchCommandsRequest_Request_Coprocessor:
		out.Cmd = &kvrpcpb.BatchCommandsResponse_Response_Coprocessor{Coprocessor: &kvrpcpb.CoprocessorResponse{RegionError: re}}
	default:
		return nil
	}
	return &out
}
