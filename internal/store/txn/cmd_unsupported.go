package txn

import (
	"context"
	"fmt"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// KvPessimisticLock is not built yet: it answers a KeyError (abort) that
// carries kv.ErrNotSupported's identity.
func (s *Storage) KvPessimisticLock(ctx context.Context, req *kvrpcpb.PessimisticLockRequest) (*kvrpcpb.PessimisticLockResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	return &kvrpcpb.PessimisticLockResponse{Errors: []*kvrpcpb.KeyError{
		keyErr(fmt.Errorf("%w: pessimistic lock", kv.ErrNotSupported)),
	}}, nil
}

// KvPessimisticRollback is not built yet: it answers a KeyError (abort)
// that carries kv.ErrNotSupported's identity.
func (s *Storage) KvPessimisticRollback(ctx context.Context, req *kvrpcpb.PessimisticRollbackRequest) (*kvrpcpb.PessimisticRollbackResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	return &kvrpcpb.PessimisticRollbackResponse{Errors: []*kvrpcpb.KeyError{
		keyErr(fmt.Errorf("%w: pessimistic rollback", kv.ErrNotSupported)),
	}}, nil
}

// Coprocessor is served by the copr package; Storage alone answers
// other_error "not supported".
func (s *Storage) Coprocessor(ctx context.Context, req *kvrpcpb.CoprocessorRequest) (*kvrpcpb.CoprocessorResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	return &kvrpcpb.CoprocessorResponse{OtherError: "not supported"}, nil
}
