package txn

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// Coprocessor is served by the copr package; Storage alone answers
// other_error "not supported".
func (s *Storage) Coprocessor(ctx context.Context, req *kvrpcpb.CoprocessorRequest) (*kvrpcpb.CoprocessorResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	return &kvrpcpb.CoprocessorResponse{OtherError: "not supported"}, nil
}
