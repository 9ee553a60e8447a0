package kvrpcpb

// Hand-written: the server half of the batched stream, mapping
// BatchCommands entries to StoreAPI calls.

import (
	"context"
	"fmt"
)

// Dispatch runs one request of a BatchCommands stream against api and wraps
// the reply in the matching response variant. A request without a command
// gets an error, as does an api error (the caller decides how to report it
// on the stream).
func Dispatch(ctx context.Context, api StoreAPI, r *BatchCommandsRequest_Request) (*BatchCommandsResponse_Response, error) {
	var (
		out BatchCommandsResponse_Response
		err error
	)
	switch c := r.GetCmd().(type) {
	case *BatchCommandsRequest_Request_Get:
		var x *GetResponse
		x, err = api.KvGet(ctx, c.Get)
		out.Cmd = &BatchCommandsResponse_Response_Get{Get: x}
	case *BatchCommandsRequest_Request_BatchGet:
		var x *BatchGetResponse
		x, err = api.KvBatchGet(ctx, c.BatchGet)
		out.Cmd = &BatchCommandsResponse_Response_BatchGet{BatchGet: x}
	case *BatchCommandsRequest_Request_Scan:
		var x *ScanResponse
		x, err = api.KvScan(ctx, c.Scan)
		out.Cmd = &BatchCommandsResponse_Response_Scan{Scan: x}
	case *BatchCommandsRequest_Request_Prewrite:
		var x *PrewriteResponse
		x, err = api.KvPrewrite(ctx, c.Prewrite)
		out.Cmd = &BatchCommandsResponse_Response_Prewrite{Prewrite: x}
	case *BatchCommandsRequest_Request_Commit:
		var x *CommitResponse
		x, err = api.KvCommit(ctx, c.Commit)
		out.Cmd = &BatchCommandsResponse_Response_Commit{Commit: x}
	case *BatchCommandsRequest_Request_BatchRollback:
		var x *BatchRollbackResponse
		x, err = api.KvBatchRollback(ctx, c.BatchRollback)
		out.Cmd = &BatchCommandsResponse_Response_BatchRollback{BatchRollback: x}
	case *BatchCommandsRequest_Request_Cleanup:
		var x *CleanupResponse
		x, err = api.KvCleanup(ctx, c.Cleanup)
		out.Cmd = &BatchCommandsResponse_Response_Cleanup{Cleanup: x}
	case *BatchCommandsRequest_Request_CheckTxnStatus:
		var x *CheckTxnStatusResponse
		x, err = api.KvCheckTxnStatus(ctx, c.CheckTxnStatus)
		out.Cmd = &BatchCommandsResponse_Response_CheckTxnStatus{CheckTxnStatus: x}
	case *BatchCommandsRequest_Request_CheckSecondaryLocks:
		var x *CheckSecondaryLocksResponse
		x, err = api.KvCheckSecondaryLocks(ctx, c.CheckSecondaryLocks)
		out.Cmd = &BatchCommandsResponse_Response_CheckSecondaryLocks{CheckSecondaryLocks: x}
	case *BatchCommandsRequest_Request_ResolveLock:
		var x *ResolveLockResponse
		x, err = api.KvResolveLock(ctx, c.ResolveLock)
		out.Cmd = &BatchCommandsResponse_Response_ResolveLock{ResolveLock: x}
	case *BatchCommandsRequest_Request_TxnHeartBeat:
		var x *TxnHeartBeatResponse
		x, err = api.KvTxnHeartBeat(ctx, c.TxnHeartBeat)
		out.Cmd = &BatchCommandsResponse_Response_TxnHeartBeat{TxnHeartBeat: x}
	case *BatchCommandsRequest_Request_ScanLock:
		var x *ScanLockResponse
		x, err = api.KvScanLock(ctx, c.ScanLock)
		out.Cmd = &BatchCommandsResponse_Response_ScanLock{ScanLock: x}
	case *BatchCommandsRequest_Request_PessimisticLock:
		var x *PessimisticLockResponse
		x, err = api.KvPessimisticLock(ctx, c.PessimisticLock)
		out.Cmd = &BatchCommandsResponse_Response_PessimisticLock{PessimisticLock: x}
	case *BatchCommandsRequest_Request_PessimisticRollback:
		var x *PessimisticRollbackResponse
		x, err = api.KvPessimisticRollback(ctx, c.PessimisticRollback)
		out.Cmd = &BatchCommandsResponse_Response_PessimisticRollback{PessimisticRollback: x}
	case *BatchCommandsRequest_Request_Coprocessor:
		var x *CoprocessorResponse
		x, err = api.Coprocessor(ctx, c.Coprocessor)
		out.Cmd = &BatchCommandsResponse_Response_Coprocessor{Coprocessor: x}
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
func RegionErrorResponse(r *BatchCommandsRequest_Request, re *RegionError) *BatchCommandsResponse_Response {
	var out BatchCommandsResponse_Response
	switch r.GetCmd().(type) {
	case *BatchCommandsRequest_Request_Get:
		out.Cmd = &BatchCommandsResponse_Response_Get{Get: &GetResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_BatchGet:
		out.Cmd = &BatchCommandsResponse_Response_BatchGet{BatchGet: &BatchGetResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_Scan:
		out.Cmd = &BatchCommandsResponse_Response_Scan{Scan: &ScanResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_Prewrite:
		out.Cmd = &BatchCommandsResponse_Response_Prewrite{Prewrite: &PrewriteResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_Commit:
		out.Cmd = &BatchCommandsResponse_Response_Commit{Commit: &CommitResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_BatchRollback:
		out.Cmd = &BatchCommandsResponse_Response_BatchRollback{BatchRollback: &BatchRollbackResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_Cleanup:
		out.Cmd = &BatchCommandsResponse_Response_Cleanup{Cleanup: &CleanupResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_CheckTxnStatus:
		out.Cmd = &BatchCommandsResponse_Response_CheckTxnStatus{CheckTxnStatus: &CheckTxnStatusResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_CheckSecondaryLocks:
		out.Cmd = &BatchCommandsResponse_Response_CheckSecondaryLocks{CheckSecondaryLocks: &CheckSecondaryLocksResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_ResolveLock:
		out.Cmd = &BatchCommandsResponse_Response_ResolveLock{ResolveLock: &ResolveLockResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_TxnHeartBeat:
		out.Cmd = &BatchCommandsResponse_Response_TxnHeartBeat{TxnHeartBeat: &TxnHeartBeatResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_ScanLock:
		out.Cmd = &BatchCommandsResponse_Response_ScanLock{ScanLock: &ScanLockResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_PessimisticLock:
		out.Cmd = &BatchCommandsResponse_Response_PessimisticLock{PessimisticLock: &PessimisticLockResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_PessimisticRollback:
		out.Cmd = &BatchCommandsResponse_Response_PessimisticRollback{PessimisticRollback: &PessimisticRollbackResponse{RegionError: re}}
	case *BatchCommandsRequest_Request_Coprocessor:
		out.Cmd = &BatchCommandsResponse_Response_Coprocessor{Coprocessor: &CoprocessorResponse{RegionError: re}}
	default:
		return nil
	}
	return &out
}

// CmdNames are the values CmdName returns: TiKV's names of the storage
// commands (its tikv_grpc_msg_duration_seconds "type" label).
var CmdNames = []string{"kv_get", "kv_batch_get", "kv_scan", "kv_prewrite", "kv_commit", "kv_batch_rollback",
	"kv_cleanup", "kv_check_txn_status", "kv_check_secondary_locks", "kv_resolve_lock", "kv_txn_heart_beat",
	"kv_scan_lock", "kv_pessimistic_lock", "kv_pessimistic_rollback", "coprocessor", "invalid"}

// CmdName names r's command as TiKV does ("kv_get", "kv_prewrite",
// "coprocessor", ...); "invalid" for a request without a known command.
func CmdName(r *BatchCommandsRequest_Request) string {
	switch r.GetCmd().(type) {
	case *BatchCommandsRequest_Request_Get:
		return "kv_get"
	case *BatchCommandsRequest_Request_BatchGet:
		return "kv_batch_get"
	case *BatchCommandsRequest_Request_Scan:
		return "kv_scan"
	case *BatchCommandsRequest_Request_Prewrite:
		return "kv_prewrite"
	case *BatchCommandsRequest_Request_Commit:
		return "kv_commit"
	case *BatchCommandsRequest_Request_BatchRollback:
		return "kv_batch_rollback"
	case *BatchCommandsRequest_Request_Cleanup:
		return "kv_cleanup"
	case *BatchCommandsRequest_Request_CheckTxnStatus:
		return "kv_check_txn_status"
	case *BatchCommandsRequest_Request_CheckSecondaryLocks:
		return "kv_check_secondary_locks"
	case *BatchCommandsRequest_Request_ResolveLock:
		return "kv_resolve_lock"
	case *BatchCommandsRequest_Request_TxnHeartBeat:
		return "kv_txn_heart_beat"
	case *BatchCommandsRequest_Request_ScanLock:
		return "kv_scan_lock"
	case *BatchCommandsRequest_Request_PessimisticLock:
		return "kv_pessimistic_lock"
	case *BatchCommandsRequest_Request_PessimisticRollback:
		return "kv_pessimistic_rollback"
	case *BatchCommandsRequest_Request_Coprocessor:
		return "coprocessor"
	default:
		return "invalid"
	}
}
