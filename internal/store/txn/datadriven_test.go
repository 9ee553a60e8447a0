package txn

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// TestStorageScripts runs the request-level scripts in testdata/: each file
// starts from an empty store. Rewrite expected output with
// `go test ./internal/store/txn -run TestStorageScripts -rewrite`.
func TestStorageScripts(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		s, e := newTestStorage(t, Options{})
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd == "reset" {
				s, e = newTestStorage(t, Options{ResolveLockBatch: int(argU64(t, d, "resolve_batch"))})
				return "ok\n"
			}
			return runCmd(t, s, e, d)
		})
	})
}

// argU64 returns the uint64 argument name (0 when absent); "max" means
// MaxUint64.
func argU64(t *testing.T, d *datadriven.TestData, name string) uint64 {
	for _, a := range d.CmdArgs {
		if a.Key != name {
			continue
		}
		if len(a.Vals) == 0 {
			d.Fatalf(t, "%s needs a value", name)
		}
		if a.Vals[0] == "max" {
			return math.MaxUint64
		}
		v, err := strconv.ParseUint(a.Vals[0], 10, 64)
		if err != nil {
			d.Fatalf(t, "%s: %v", name, err)
		}
		return v
	}
	return 0
}

func argU64s(t *testing.T, d *datadriven.TestData, name string) []uint64 {
	var out []uint64
	for _, a := range d.CmdArgs {
		if a.Key == name {
			for _, v := range a.Vals {
				n, err := strconv.ParseUint(v, 10, 64)
				if err != nil {
					d.Fatalf(t, "%s: %v", name, err)
				}
				out = append(out, n)
			}
		}
	}
	return out
}

func argStr(d *datadriven.TestData, name string) string {
	for _, a := range d.CmdArgs {
		if a.Key == name && len(a.Vals) > 0 {
			return a.Vals[0]
		}
	}
	return ""
}

// argKeys returns the keys of argument name (keys=(a,b)); "" is the empty key.
func argKeys(d *datadriven.TestData, name string) [][]byte {
	for _, a := range d.CmdArgs {
		if a.Key == name {
			out := make([][]byte, len(a.Vals))
			for i, v := range a.Vals {
				out[i] = []byte(strings.Trim(v, `"`))
			}
			return out
		}
	}
	return nil
}

func reqCtx(t *testing.T, d *datadriven.TestData) *kvrpcpb.Context {
	c := &kvrpcpb.Context{
		ResolvedLocks:  argU64s(t, d, "resolved"),
		CommittedLocks: argU64s(t, d, "committed"),
		IsRetryRequest: d.HasArg("retry"),
	}
	if d.HasArg("rc") {
		c.IsolationLevel = kvrpcpb.IsolationLevel_RC
	}
	return c
}

func runCmd(t *testing.T, s *Storage, e *hookEngine, d *datadriven.TestData) string {
	var out strings.Builder
	errf := func(ke *kvrpcpb.KeyError) {
		if ke != nil {
			fmt.Fprintf(&out, "error: %s\n", fmtKeyErr(ke))
		}
	}
	var goErr error
	switch d.Cmd {
	case "prewrite":
		req := &kvrpcpb.PrewriteRequest{
			Context:             reqCtx(t, d),
			PrimaryLock:         []byte(argStr(d, "primary")),
			StartVersion:        argU64(t, d, "start"),
			LockTtl:             argU64(t, d, "ttl"),
			TxnSize:             argU64(t, d, "size"),
			ForUpdateTs:         argU64(t, d, "for_update"),
			MinCommitTs:         argU64(t, d, "min_commit"),
			MaxCommitTs:         argU64(t, d, "max_commit"),
			UseAsyncCommit:      d.HasArg("async"),
			Secondaries:         argKeys(d, "secondaries"),
			TryOnePc:            d.HasArg("1pc"),
			SkipConstraintCheck: d.HasArg("skip_check"),
		}
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			if line == "" {
				continue
			}
			f := strings.Fields(line)
			m := &kvrpcpb.Mutation{}
			ops := map[string]kvrpcpb.Op{"put": kvrpcpb.Op_Put, "del": kvrpcpb.Op_Del, "lock": kvrpcpb.Op_Lock,
				"insert": kvrpcpb.Op_Insert, "check_not_exists": kvrpcpb.Op_CheckNotExists}
			op, ok := ops[f[0]]
			if !ok {
				d.Fatalf(t, "unknown op %q", f[0])
			}
			m.Op = op
			if len(f) > 1 {
				m.Key = []byte(strings.Trim(f[1], `"`))
			}
			if len(f) > 2 {
				m.Value = []byte(f[2])
			}
			req.Mutations = append(req.Mutations, m)
		}
		resp, err := s.KvPrewrite(bg, req)
		goErr = err
		for _, ke := range resp.GetErrors() {
			errf(ke)
		}
		if len(resp.GetErrors()) == 0 && err == nil {
			fmt.Fprintf(&out, "ok min_commit_ts=%d one_pc_commit_ts=%d\n", resp.MinCommitTs, resp.OnePcCommitTs)
		}
	case "commit":
		resp, err := s.KvCommit(bg, &kvrpcpb.CommitRequest{StartVersion: argU64(t, d, "start"),
			CommitVersion: argU64(t, d, "commit"), Keys: argKeys(d, "keys")})
		goErr = err
		errf(resp.GetError())
		if resp.GetError() == nil && err == nil {
			fmt.Fprintf(&out, "ok commit_version=%d\n", resp.CommitVersion)
		}
	case "rollback":
		resp, err := s.KvBatchRollback(bg, &kvrpcpb.BatchRollbackRequest{StartVersion: argU64(t, d, "start"), Keys: argKeys(d, "keys")})
		goErr = err
		errf(resp.GetError())
		if resp.GetError() == nil && err == nil {
			out.WriteString("ok\n")
		}
	case "cleanup":
		resp, err := s.KvCleanup(bg, &kvrpcpb.CleanupRequest{Key: []byte(argStr(d, "key")),
			StartVersion: argU64(t, d, "start"), CurrentTs: argU64(t, d, "current")})
		goErr = err
		errf(resp.GetError())
		if resp.GetError() == nil && err == nil {
			fmt.Fprintf(&out, "ok commit_version=%d\n", resp.CommitVersion)
		}
	case "check-txn-status":
		resp, err := s.KvCheckTxnStatus(bg, &kvrpcpb.CheckTxnStatusRequest{
			PrimaryKey: []byte(argStr(d, "primary")), LockTs: argU64(t, d, "lock"),
			CallerStartTs: argU64(t, d, "caller"), CurrentTs: argU64(t, d, "current"),
			RollbackIfNotExist: d.HasArg("rollback_if_not_exist"), ForceSyncCommit: d.HasArg("force_sync_commit"),
			ResolvingPessimisticLock: d.HasArg("resolving_pessimistic")})
		goErr = err
		errf(resp.GetError())
		if resp.GetError() == nil && err == nil {
			fmt.Fprintf(&out, "ttl=%d commit_version=%d action=%v", resp.LockTtl, resp.CommitVersion, resp.Action)
			if l := resp.LockInfo; l != nil {
				fmt.Fprintf(&out, " lock=%s", fmtLockInfo(l))
			}
			out.WriteString("\n")
		}
	case "check-secondary-locks":
		resp, err := s.KvCheckSecondaryLocks(bg, &kvrpcpb.CheckSecondaryLocksRequest{
			StartVersion: argU64(t, d, "start"), Keys: argKeys(d, "keys")})
		goErr = err
		errf(resp.GetError())
		if resp.GetError() == nil && err == nil {
			fmt.Fprintf(&out, "commit_ts=%d locks=%d\n", resp.CommitTs, len(resp.Locks))
			for _, l := range resp.Locks {
				fmt.Fprintf(&out, "  %s\n", fmtLockInfo(l))
			}
		}
	case "resolve-lock":
		resp, err := s.KvResolveLock(bg, &kvrpcpb.ResolveLockRequest{StartVersion: argU64(t, d, "start"),
			CommitVersion: argU64(t, d, "commit"), Keys: argKeys(d, "keys")})
		goErr = err
		errf(resp.GetError())
		if resp.GetError() == nil && err == nil {
			out.WriteString("ok\n")
		}
	case "heartbeat":
		resp, err := s.KvTxnHeartBeat(bg, &kvrpcpb.TxnHeartBeatRequest{PrimaryLock: []byte(argStr(d, "primary")),
			StartVersion: argU64(t, d, "start"), AdviseLockTtl: argU64(t, d, "ttl")})
		goErr = err
		errf(resp.GetError())
		if resp.GetError() == nil && err == nil {
			fmt.Fprintf(&out, "ttl=%d\n", resp.LockTtl)
		}
	case "get":
		resp, err := s.KvGet(bg, &kvrpcpb.GetRequest{Context: reqCtx(t, d), Key: []byte(argStr(d, "key")), Version: argU64(t, d, "ts")})
		goErr = err
		errf(resp.GetError())
		if resp.GetError() == nil && err == nil {
			if resp.NotFound {
				out.WriteString("not found\n")
			} else {
				fmt.Fprintf(&out, "%s\n", resp.Value)
			}
		}
	case "batch-get":
		resp, err := s.KvBatchGet(bg, &kvrpcpb.BatchGetRequest{Context: reqCtx(t, d), Keys: argKeys(d, "keys"), Version: argU64(t, d, "ts")})
		goErr = err
		errf(resp.GetError())
		fmtPairs(&out, resp.GetPairs())
	case "scan":
		resp, err := s.KvScan(bg, &kvrpcpb.ScanRequest{Context: reqCtx(t, d), StartKey: []byte(argStr(d, "start")),
			EndKey: []byte(argStr(d, "end")), Limit: uint32(argU64(t, d, "limit")), Version: argU64(t, d, "ts"),
			KeyOnly: d.HasArg("key_only"), Reverse: d.HasArg("reverse")})
		goErr = err
		errf(resp.GetError())
		fmtPairs(&out, resp.GetPairs())
	case "scan-lock":
		resp, err := s.KvScanLock(bg, &kvrpcpb.ScanLockRequest{StartKey: []byte(argStr(d, "start")),
			EndKey: []byte(argStr(d, "end")), Limit: uint32(argU64(t, d, "limit")), MaxVersion: argU64(t, d, "max")})
		goErr = err
		errf(resp.GetError())
		for _, l := range resp.GetLocks() {
			fmt.Fprintf(&out, "%s\n", fmtLockInfo(l))
		}
	case "writes":
		fmt.Fprintf(&out, "engine writes=%d\n", e.writes.Swap(0))
	case "max-ts":
		fmt.Fprintf(&out, "max_ts=%d\n", s.cm.MaxTS())
	case "dump":
		dumpEngine(t, e, &out)
	default:
		d.Fatalf(t, "unknown command %s", d.Cmd)
	}
	if goErr != nil {
		fmt.Fprintf(&out, "go error: %v\n", goErr)
	}
	if out.Len() == 0 {
		return "<empty>\n"
	}
	return out.String()
}

func fmtPairs(out *strings.Builder, pairs []*kvrpcpb.KvPair) {
	for _, p := range pairs {
		if p.Error != nil {
			fmt.Fprintf(out, "%s: error: %s\n", p.Key, fmtKeyErr(p.Error))
			continue
		}
		fmt.Fprintf(out, "%s=%s\n", p.Key, p.Value)
	}
}

func fmtLockInfo(l *kvrpcpb.LockInfo) string {
	s := fmt.Sprintf("{key=%s primary=%s start=%d ttl=%d type=%v", l.Key, l.PrimaryLock, l.LockVersion, l.LockTtl, l.LockType)
	if l.MinCommitTs != 0 {
		s += fmt.Sprintf(" min_commit=%d", l.MinCommitTs)
	}
	if l.UseAsyncCommit {
		s += fmt.Sprintf(" async secondaries=%q", l.Secondaries)
	}
	return s + "}"
}

// dumpEngine prints every record of the engine, decoded.
func dumpEngine(t *testing.T, e *hookEngine, out *strings.Builder) {
	snap, err := e.Snapshot(bg)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	it, err := snap.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		k, v := it.Key(), it.Value()
		switch k[0] {
		case 'l':
			l, err := mvcc.DecodeLock(v)
			if err != nil {
				t.Fatal(err)
			}
			info := l.Info(k[1:])
			fmt.Fprintf(out, "lock %s\n", fmtLockInfo(kvrpcpb.LockInfoFrom(&info)))
		case 'w', 'd':
			_, uk, ts, err := mvcc.DecodeVersionedKey(k)
			if err != nil {
				t.Fatal(err)
			}
			if k[0] == 'd' {
				fmt.Fprintf(out, "data %s@%d len=%d\n", uk, ts, len(v))
				continue
			}
			w, err := mvcc.DecodeWrite(v)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(out, "write %s@%d %c start=%d", uk, ts, w.Type, w.StartTS)
			if w.Type != mvcc.WriteTypeRollback && len(w.ShortValue) > 0 {
				fmt.Fprintf(out, " value=%s", w.ShortValue)
			}
			if w.IsProtectedRollback() {
				out.WriteString(" protected")
			}
			if w.HasOverlappedRollback {
				out.WriteString(" overlapped")
			}
			if w.GCFence != 0 {
				fmt.Fprintf(out, " gc_fence=%d", w.GCFence)
			}
			out.WriteString("\n")
		default:
			fmt.Fprintf(out, "raw %q\n", k)
		}
	}
	if out.Len() == 0 {
		out.WriteString("<empty>\n")
	}
}
