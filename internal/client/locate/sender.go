package locate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// ErrNoReply is wrapped by *SendError: the request may or may not have been
// executed by storage.
var ErrNoReply = errors.New("locate: rpc failed without a reply")

// ErrRegionRetry is wrapped by the error Send returns after it handled a
// region error (cache corrected, backoff done): the caller relocates its
// keys, regroups them if they now span regions, and sends again.
var ErrRegionRetry = errors.New("locate: region changed, relocate and retry")

// SendError is an RPC that failed without a reply.
type SendError struct {
	Addr     string
	RegionID uint64
	Err      error
}

func (e *SendError) Error() string {
	return fmt.Sprintf("rpc to %s (region %d) failed without reply: %v", e.Addr, e.RegionID, e.Err)
}

// Is makes errors.Is(err, ErrNoReply) true.
func (e *SendError) Is(target error) bool { return target == ErrNoReply }

// Unwrap returns the transport error.
func (e *SendError) Unwrap() error { return e.Err }

// regionRetryError carries the region error that made Send ask for a retry.
type regionRetryError struct{ regionErr *kvrpcpb.RegionError }

func (e *regionRetryError) Error() string {
	return fmt.Sprintf("%v: %s", ErrRegionRetry, describeRegionError(e.regionErr))
}
func (e *regionRetryError) Is(target error) bool { return target == ErrRegionRetry }

// Request is any kvrpcpb request: it carries a routing Context.
type Request interface {
	proto.Message
	GetContext() *kvrpcpb.Context
}

// Response is any kvrpcpb response: it may carry a RegionError.
type Response interface {
	GetRegionError() *kvrpcpb.RegionError
}

// Method is one StoreAPI call as a method expression, e.g.
// rpc.StoreAPI.KvGet.
type Method[Req Request, Resp Response] func(rpc.StoreAPI, context.Context, Req) (Resp, error)

// RegionRequestSender sends requests to regions through an rpc.Client,
// keeping a RegionCache right.
type RegionRequestSender struct {
	cache  *RegionCache
	client rpc.Client
	// durations, when set, observes each RPC attempt by RequestType;
	// observers caches its observer of each type.
	durations prometheus.ObserverVec
	observers sync.Map // protoreflect.FullName -> prometheus.Observer
}

// NewRegionRequestSender returns a sender over cache and client.
func NewRegionRequestSender(cache *RegionCache, client rpc.Client) *RegionRequestSender {
	return &RegionRequestSender{cache: cache, client: client}
}

// ObserveRequests makes the sender observe each RPC attempt's duration,
// in seconds, in v by RequestType. Call it before the first Send.
func (s *RegionRequestSender) ObserveRequests(v prometheus.ObserverVec) { s.durations = v }

// RequestType names a request by its message without "Request":
// "Get", "Prewrite", "Coprocessor", ...
func RequestType(req Request) string {
	return strings.TrimSuffix(string(req.ProtoReflect().Descriptor().Name()), "Request")
}

// observe records an attempt at req that started at start.
func (s *RegionRequestSender) observe(req Request, start time.Time) {
	name := req.ProtoReflect().Descriptor().FullName()
	o, ok := s.observers.Load(name)
	if !ok {
		o, _ = s.observers.LoadOrStore(name, s.durations.WithLabelValues(RequestType(req)))
	}
	o.(prometheus.Observer).Observe(time.Since(start).Seconds())
}

// Cache returns the sender's region cache.
func (s *RegionRequestSender) Cache() *RegionCache { return s.cache }

// Send sends req to the region at loc once. It returns:
//   - the response, when storage replied without a region error (key
//     errors are the caller's to read);
//   - an error wrapping ErrRegionRetry after a region error was handled
//     (cache updated, backoff slept): relocate and resend;
//   - an error wrapping kv.ErrRegionUnavailable once bo's budget is spent,
//     or the context's error when it is done;
//   - a *SendError when the RPC failed without a reply.
func Send[Req Request, Resp Response](s *RegionRequestSender, bo *Backoffer, loc *KeyLocation, req Req, m Method[Req, Resp]) (Resp, error) {
	var zero Resp
	ctx := bo.Context()
	fillContext(req, loc)
	api, err := s.client.Store(loc.Addr)
	if err != nil {
		s.cache.InvalidateRegion(loc.RegionID)
		if berr := bo.Backoff(BoStoreUnreachable, err); berr != nil {
			return zero, unavailable(loc, berr)
		}
		return zero, &regionRetryError{regionErr: &kvrpcpb.RegionError{Message: err.Error()}}
	}
	var start time.Time
	if s.durations != nil {
		start = time.Now()
	}
	resp, err := m(api, ctx, req)
	if s.durations != nil {
		s.observe(req, start)
	}
	if err != nil {
		// The store may be gone: the next attempt asks the source where
		// the region lives now.
		s.cache.InvalidateRegion(loc.RegionID)
		return zero, &SendError{Addr: loc.Addr, RegionID: loc.RegionID, Err: err}
	}
	regionErr := resp.GetRegionError()
	if regionErr == nil {
		return resp, nil
	}
	if u := regionErr.GetUndeterminedResult(); u != nil {
		// Like a lost reply: the write may or may not apply, so callers
		// treat it as they treat no reply at all.
		s.cache.InvalidateRegion(loc.RegionID)
		return zero, &SendError{Addr: loc.Addr, RegionID: loc.RegionID, Err: errors.New("result undetermined: " + u.GetReason())}
	}
	if err := s.onRegionError(ctx, bo, loc, regionErr); err != nil {
		return zero, err
	}
	return zero, &regionRetryError{regionErr: regionErr}
}

// SendKey sends req to the region that holds key, relocating and resending
// across region errors; req's Context is marked as a retry after the first
// attempt. Errors are Send's, minus ErrRegionRetry.
func SendKey[Req Request, Resp Response](s *RegionRequestSender, bo *Backoffer, key []byte, req Req, m Method[Req, Resp]) (Resp, error) {
	return SendLocated(s, bo, func() (*KeyLocation, error) { return s.cache.LocateKey(bo.Context(), bo, key) }, req, m)
}

// SendLocated is SendKey with the region chosen by locate (e.g. by
// LocateEndKey for a reverse scan).
func SendLocated[Req Request, Resp Response](s *RegionRequestSender, bo *Backoffer, locate func() (*KeyLocation, error), req Req, m Method[Req, Resp]) (Resp, error) {
	var zero Resp
	for {
		loc, err := locate()
		if err != nil {
			return zero, err
		}
		resp, err := Send(s, bo, loc, req, m)
		if err == nil || !errors.Is(err, ErrRegionRetry) {
			return resp, err
		}
		req.GetContext().IsRetryRequest = true
	}
}

// onRegionError corrects the cache for regionErr and backs off. It returns
// nil when the caller should retry, else the error to fail with.
func (s *RegionRequestSender) onRegionError(ctx context.Context, bo *Backoffer, loc *KeyLocation, e *kvrpcpb.RegionError) error {
	var berr error
	cause := errors.New(describeRegionError(e))
	switch {
	case e.GetNotLeader() != nil:
		if s.cache.OnNotLeader(ctx, loc.RegionID, e.GetNotLeader().GetLeader()) {
			berr = bo.BackoffWithMaxSleep(BoRegionMiss, 0, cause) // new leader: retry at once
		} else {
			berr = bo.Backoff(BoRegionMiss, cause)
		}
	case e.GetEpochNotMatch() != nil:
		if s.cache.OnEpochNotMatch(ctx, loc, e.GetEpochNotMatch().GetCurrentRegions()) {
			berr = bo.BackoffWithMaxSleep(BoRegionMiss, 0, cause)
		} else {
			berr = bo.Backoff(BoRegionMiss, cause)
		}
	case e.GetServerIsBusy() != nil:
		berr = bo.Backoff(BoServerBusy, cause)
	case e.GetMaxTimestampNotSynced() != nil:
		berr = bo.Backoff(BoMaxTsNotSynced, cause)
	default: // RegionNotFound, KeyNotInRegion, anything unknown
		s.cache.InvalidateRegion(loc.RegionID)
		berr = bo.Backoff(BoRegionMiss, cause)
	}
	if berr != nil {
		return unavailable(loc, berr)
	}
	return nil
}

// unavailable turns a spent budget into kv.ErrRegionUnavailable; a done
// context stays the context's error.
func unavailable(loc *KeyLocation, berr error) error {
	if errors.Is(berr, ErrBackoffExhausted) {
		return fmt.Errorf("%w: region %d: %w", kv.ErrRegionUnavailable, loc.RegionID, berr)
	}
	return berr
}

// fillContext routes req to loc, keeping its read options.
func fillContext(req Request, loc *KeyLocation) {
	c := req.GetContext()
	if c == nil {
		c = &kvrpcpb.Context{}
		m := req.ProtoReflect()
		m.Set(m.Descriptor().Fields().ByName("context"), protoreflect.ValueOfMessage(c.ProtoReflect()))
	}
	rc := loc.Context()
	c.RegionId, c.RegionEpoch, c.Peer = rc.RegionId, rc.RegionEpoch, rc.Peer
}

// describeRegionError names a region error for messages.
func describeRegionError(e *kvrpcpb.RegionError) string {
	switch {
	case e.GetNotLeader() != nil:
		return fmt.Sprintf("not leader (region %d, hint %v)", e.GetNotLeader().GetRegionId(), e.GetNotLeader().GetLeader())
	case e.GetEpochNotMatch() != nil:
		return fmt.Sprintf("epoch not match (%d current regions)", len(e.GetEpochNotMatch().GetCurrentRegions()))
	case e.GetRegionNotFound() != nil:
		return fmt.Sprintf("region %d not found", e.GetRegionNotFound().GetRegionId())
	case e.GetKeyNotInRegion() != nil:
		return fmt.Sprintf("key %q not in region %d", e.GetKeyNotInRegion().GetKey(), e.GetKeyNotInRegion().GetRegionId())
	case e.GetServerIsBusy() != nil:
		return "server is busy: " + e.GetServerIsBusy().GetReason()
	case e.GetMaxTimestampNotSynced() != nil:
		return "max timestamp not synced"
	default:
		return "region error: " + e.GetMessage()
	}
}
