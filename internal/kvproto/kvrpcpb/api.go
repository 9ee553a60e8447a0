package kvrpcpb

// Hand-written.

import "context"

// StoreAPI is one storage node's request/response API: the unary methods of
// TikvServer with the same signatures, so a storage node's service
// satisfies it directly.
type StoreAPI interface {
	KvGet(context.Context, *GetRequest) (*GetResponse, error)
	KvBatchGet(context.Context, *BatchGetRequest) (*BatchGetResponse, error)
	KvScan(context.Context, *ScanRequest) (*ScanResponse, error)
	KvPrewrite(context.Context, *PrewriteRequest) (*PrewriteResponse, error)
	KvCommit(context.Context, *CommitRequest) (*CommitResponse, error)
	KvBatchRollback(context.Context, *BatchRollbackRequest) (*BatchRollbackResponse, error)
	KvCleanup(context.Context, *CleanupRequest) (*CleanupResponse, error)
	KvCheckTxnStatus(context.Context, *CheckTxnStatusRequest) (*CheckTxnStatusResponse, error)
	KvCheckSecondaryLocks(context.Context, *CheckSecondaryLocksRequest) (*CheckSecondaryLocksResponse, error)
	KvResolveLock(context.Context, *ResolveLockRequest) (*ResolveLockResponse, error)
	KvTxnHeartBeat(context.Context, *TxnHeartBeatRequest) (*TxnHeartBeatResponse, error)
	KvScanLock(context.Context, *ScanLockRequest) (*ScanLockResponse, error)
	KvPessimisticLock(context.Context, *PessimisticLockRequest) (*PessimisticLockResponse, error)
	KvPessimisticRollback(context.Context, *PessimisticRollbackRequest) (*PessimisticRollbackResponse, error)
	Coprocessor(context.Context, *CoprocessorRequest) (*CoprocessorResponse, error)
}

// RegionSplitter is implemented by the stores that split regions on
// request (TiKV's SplitRegion): the storage node, and a client's handle on
// one. It is not part of StoreAPI, the transactional API.
type RegionSplitter interface {
	SplitRegion(context.Context, *SplitRegionRequest) (*SplitRegionResponse, error)
}

// SplitNotSupported is the other_error of a SplitRegionResponse from a
// store that does not split regions (one without a raftstore).
const SplitNotSupported = "this store does not split regions"
