package mvcc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/store/engine"
)

// fakeMem is a MemLocker with a settable max_ts that records the locks
// published by Prewrite; the harness releases them after each command.
type fakeMem struct {
	maxTS     uint64
	step      uint64 // added to maxTS after each LockKey (a concurrent reader)
	published []string
}

func (m *fakeMem) LockKey(key []byte, fill func(maxTS uint64) *Lock) {
	defer func() { m.maxTS += m.step }()
	if l := fill(m.maxTS); l != nil {
		m.published = append(m.published, fmt.Sprintf("%s(min_commit=%d one_pc=%v)", key, l.MinCommitTS, l.UseOnePC))
	}
}

type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}

// harness runs one datadriven file against a fresh in-memory engine.
type harness struct {
	t   testing.TB
	eng *engine.Pebble
	mem fakeMem
}

func newHarness(t testing.TB) *harness {
	e, err := engine.Open("db", WithKeySplit(engine.Options{FS: vfs.NewMem(), CacheSize: 1 << 20, Logger: quietLogger{}}))
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, eng: e}
}

func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		h := newHarness(t)
		defer h.eng.Close()
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			return h.run(td)
		})
	})
}

// run executes one command: snapshot -> action -> engine write.
func (h *harness) run(td *datadriven.TestData) string {
	ctx := context.Background()
	snap, err := h.eng.Snapshot(ctx)
	if err != nil {
		h.t.Fatal(err)
	}
	defer snap.Close()
	r := NewReader(snap)
	defer r.Close()
	a := args{td: td, t: h.t}
	var startTS uint64
	if td.Cmd == "prewrite" {
		startTS = a.ts("start")
	}
	t := NewTxn(startTS)
	var out strings.Builder
	h.mem.published = nil

	switch td.Cmd {
	case "max_ts":
		h.mem.maxTS, h.mem.step = a.ts("ts"), a.ts("step")
		return "ok"
	case "dump":
		return h.dump()
	case "put_lock":
		// Places a lock directly (pessimistic locks are acquired by later work).
		l := &Lock{Type: kv.LockType(a.str("type", "S")[0]), Primary: []byte(a.str("primary", a.str("k", ""))),
			StartTS: a.ts("start"), TTL: a.ts("ttl"), ForUpdateTS: a.ts("for_update"), MinCommitTS: a.ts("min_commit")}
		t.putLock([]byte(a.str("k", "")), l)
		out.WriteString("ok")
	case "gc_delete":
		// Removes one write record, as GC would.
		t.deleteWrite(a.key(), a.ts("ts"))
		out.WriteString("ok")
	case "prewrite":
		h.prewrite(a, r, t, &out)
	case "pessimistic_lock":
		p := &PessimisticLockParams{Primary: []byte(a.str("primary", string(a.keys()[0]))), StartTS: a.ts("start"),
			ForUpdateTS: a.ts("for_update"), LockTTL: a.tsOr("ttl", 3000), MinCommitTS: a.ts("min_commit")}
		for _, k := range a.keys() {
			v, found, err := AcquirePessimisticLock(t, r, p, k, a.has("should_not_exist"), a.has("return_value"))
			switch {
			case err != nil:
				fmt.Fprintf(&out, "%s: %s\n", k, errStr(err))
			case a.has("return_value") && found:
				fmt.Fprintf(&out, "%s: ok value=%s\n", k, valStr(v))
			case a.has("return_value"):
				fmt.Fprintf(&out, "%s: ok <not found>\n", k)
			default:
				fmt.Fprintf(&out, "%s: ok\n", k)
			}
		}
	case "pessimistic_rollback":
		for _, k := range a.keys() {
			fmt.Fprintf(&out, "%s: %s\n", k, errStr(PessimisticRollback(t, r, k, a.ts("start"), a.ts("for_update"))))
		}
	case "commit":
		for _, k := range a.keys() {
			fmt.Fprintf(&out, "%s: %s\n", k, errStr(Commit(t, r, k, a.ts("start"), a.ts("commit"))))
		}
	case "rollback":
		for _, k := range a.keys() {
			fmt.Fprintf(&out, "%s: %s\n", k, errStr(Rollback(t, r, k, a.ts("start"))))
		}
	case "cleanup":
		cts, err := Cleanup(t, r, a.key(), a.ts("start"), a.ts("current"), a.has("protect"))
		fmt.Fprintf(&out, "committed_ts=%d %s", cts, errStr(err))
	case "resolve":
		for _, k := range a.keys() {
			fmt.Fprintf(&out, "%s: %s\n", k, errStr(ResolveLock(t, r, k, a.ts("start"), a.ts("commit"))))
		}
	case "heartbeat":
		ttl, err := TxnHeartBeat(t, r, a.key(), a.ts("start"), a.ts("ttl"))
		fmt.Fprintf(&out, "ttl=%d %s", ttl, errStr(err))
	case "check_txn_status":
		st, err := CheckTxnStatus(t, r, &CheckTxnStatusParams{Primary: a.key(), LockTS: a.ts("lock"),
			CallerStartTS: a.ts("caller"), CurrentTS: a.ts("current"), RollbackIfNotExist: a.has("rollback_if_not_exist"),
			ForceSyncCommit: a.has("force_sync"), ResolvingPessimisticLock: a.has("resolving_pessimistic")})
		if err != nil {
			out.WriteString(errStr(err))
			break
		}
		fmt.Fprintf(&out, "ttl=%d commit_ts=%d action=%s", st.LockTTL, st.CommitTS, actionNames[st.Action])
		if st.Lock != nil {
			fmt.Fprintf(&out, " lock={%s}", lockInfoStr(st.Lock))
		}
	case "check_secondary":
		for _, k := range a.keys() {
			st, err := CheckSecondaryLock(t, r, k, a.ts("start"))
			switch {
			case err != nil:
				fmt.Fprintf(&out, "%s: %s\n", k, errStr(err))
			case st.Lock != nil:
				fmt.Fprintf(&out, "%s: locked min_commit=%d\n", k, st.Lock.MinCommitTS)
			case st.CommitTS != 0:
				fmt.Fprintf(&out, "%s: committed at %d\n", k, st.CommitTS)
			default:
				fmt.Fprintf(&out, "%s: rolled back\n", k)
			}
			if err != nil || st.Lock == nil {
				break
			}
		}
	case "get":
		for _, k := range a.keys() {
			v, found, err := r.Get(k, a.ts("ts"), a.readOpts())
			switch {
			case err != nil:
				fmt.Fprintf(&out, "%s: %s\n", k, errStr(err))
			case !found:
				fmt.Fprintf(&out, "%s: <not found>\n", k)
			default:
				fmt.Fprintf(&out, "%s: %s\n", k, valStr(v))
			}
		}
	case "get_newest":
		for _, k := range a.keys() {
			v, found, newestTS, err := r.GetNewest(k, a.readOpts())
			switch {
			case err != nil:
				fmt.Fprintf(&out, "%s: %s\n", k, errStr(err))
			case !found:
				fmt.Fprintf(&out, "%s: <not found> newest=%d\n", k, newestTS)
			default:
				fmt.Fprintf(&out, "%s: %s newest=%d\n", k, valStr(v), newestTS)
			}
		}
	case "scan":
		pairs, err := r.Scan([]byte(a.str("start", "")), []byte(a.str("end", "")), int(a.ts("limit")), a.ts("ts"), a.has("reverse"), a.readOpts())
		if err != nil {
			return errStr(err)
		}
		for _, p := range pairs {
			if p.Err != nil {
				fmt.Fprintf(&out, "%s: %s\n", p.Key, errStr(p.Err))
			} else {
				fmt.Fprintf(&out, "%s: %s\n", p.Key, valStr(p.Value))
			}
		}
		if len(pairs) == 0 {
			out.WriteString("<empty>")
		}
	case "scan_locks":
		locks, err := r.ScanLocks([]byte(a.str("start", "")), []byte(a.str("end", "")), a.ts("max_ts"), int(a.ts("limit")))
		if err != nil {
			return errStr(err)
		}
		for i := range locks {
			fmt.Fprintf(&out, "%s\n", lockInfoStr(&locks[i]))
		}
		if len(locks) == 0 {
			out.WriteString("<empty>")
		}
	case "scan_txn_locks":
		keys, err := r.ScanTxnLocks([]byte(a.str("start", "")), []byte(a.str("end", "")), a.ts("start_ts"), int(a.ts("limit")))
		if err != nil {
			return errStr(err)
		}
		fmt.Fprintf(&out, "%q", keys)
	default:
		h.t.Fatalf("unknown command %q", td.Cmd)
	}
	res := strings.TrimSpace(out.String())
	if len(h.mem.published) > 0 {
		res += fmt.Sprintf("\nmem: %s", strings.Join(h.mem.published, " "))
	}
	if !t.Batch().Empty() {
		if err := h.eng.Write(ctx, t.Batch()); err != nil {
			h.t.Fatal(err)
		}
		res += fmt.Sprintf("\nwrote %d ops", t.Batch().Len())
	}
	return res
}

// prewrite runs Prewrite over the keys of one request with the request
// rules of §2.2 as the txn layer applies them.
func (h *harness) prewrite(a args, r *Reader, t *Txn, out *strings.Builder) {
	keys := a.keys()
	vals := a.list("v")
	ops := a.list("op")
	pess := a.list("pessimistic") // per key: y = DoPessimisticCheck
	newest := a.list("newest")    // per key: the NewestSeen of a ReadNewest key, - = not one
	var secondaries [][]byte
	for _, s := range a.list("secondaries") {
		secondaries = append(secondaries, []byte(s))
	}
	p := &PrewriteParams{Primary: []byte(a.str("primary", string(keys[0]))), StartTS: a.ts("start"),
		LockTTL: a.tsOr("ttl", 3000), ForUpdateTS: a.ts("for_update"), MinCommitTS: a.ts("min_commit"),
		MaxCommitTS: a.ts("max_commit"), UseAsyncCommit: a.has("async"), Secondaries: secondaries,
		TryOnePC: a.has("one_pc"), SkipConstraintCheck: a.has("skip_check"), IsRetry: a.has("retry"), Mem: &h.mem}
	var maxMin uint64
	locked := false
	for i, k := range keys {
		m := Mutation{Op: OpPut, Key: k}
		if i < len(ops) {
			m.Op = map[string]MutationOp{"put": OpPut, "del": OpDel, "lock": OpLock, "insert": OpInsert, "check_not_exists": OpCheckNotExists}[ops[i]]
		}
		if i < len(vals) {
			m.Value = []byte(vals[i])
		}
		m.Pessimistic = i < len(pess) && pess[i] == "y"
		if i < len(newest) && newest[i] != "-" {
			seen, err := strconv.ParseUint(newest[i], 10, 64)
			if err != nil {
				h.t.Fatalf("newest=%q: %v", newest[i], err)
			}
			m.ReadNewest, m.NewestSeen = true, seen
		}
		if n := a.ts("vlen"); n > 0 {
			m.Value = []byte(strings.Repeat(string(m.Value), int(n)/max(len(m.Value), 1)+1)[:n])
		}
		mc, err := Prewrite(t, r, p, m)
		fmt.Fprintf(out, "%s: min_commit=%d %s\n", k, mc, errStr(err))
		if errors.Is(err, kv.ErrKeyIsLocked) {
			locked = true
		}
		maxMin = max(maxMin, mc)
	}
	switch {
	case locked:
		t.Reset()
		out.WriteString("a key is locked: nothing written\n")
	case t.OnePCPending() > 0 && p.TryOnePC:
		t.CommitOnePC(maxMin)
		fmt.Fprintf(out, "one_pc_commit_ts=%d\n", maxMin)
	case t.OnePCPending() > 0:
		t.FallbackOnePC()
		out.WriteString("one_pc fell back to 2PC\n")
	case p.UseAsyncCommit:
		fmt.Fprintf(out, "async min_commit_ts=%d\n", maxMin)
	}
}

// dump prints every record of the engine, by key space.
func (h *harness) dump() string {
	snap, _ := h.eng.Snapshot(context.Background())
	defer snap.Close()
	it, err := snap.NewIter(nil, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	defer it.Close()
	var out strings.Builder
	for ok := it.First(); ok; ok = it.Next() {
		ek, v := it.Key(), it.Value()
		switch ek[0] {
		case prefixLock:
			l, err := DecodeLock(v)
			if err != nil {
				h.t.Fatal(err)
			}
			fmt.Fprintf(&out, "lock %s: %s\n", ek[1:], lockStr(l))
		case prefixWrite, prefixData:
			pre, k, ts, err := DecodeVersionedKey(ek)
			if err != nil {
				h.t.Fatal(err)
			}
			if pre == prefixData {
				fmt.Fprintf(&out, "data %s@%d: %s\n", k, ts, valStr(v))
				continue
			}
			w, err := DecodeWrite(v)
			if err != nil {
				h.t.Fatal(err)
			}
			fmt.Fprintf(&out, "write %s@%d: %s\n", k, ts, writeStr(w))
		default:
			h.t.Fatalf("stray engine key %q", ek)
		}
	}
	if out.Len() == 0 {
		return "<empty>"
	}
	return strings.TrimSpace(out.String())
}

func lockStr(l *Lock) string {
	s := fmt.Sprintf("%c primary=%s start=%d ttl=%d", l.Type, l.Primary, l.StartTS, l.TTL)
	if l.HasValue {
		s += " value=" + valStr(l.ShortValue)
	}
	if l.ForUpdateTS != 0 {
		s += fmt.Sprintf(" for_update=%d", l.ForUpdateTS)
	}
	if l.MinCommitTS != 0 {
		s += fmt.Sprintf(" min_commit=%d", l.MinCommitTS)
	}
	if l.UseAsyncCommit {
		s += fmt.Sprintf(" async secondaries=%q", l.Secondaries)
	}
	if len(l.RollbackTS) > 0 {
		s += fmt.Sprintf(" rollback_ts=%v", l.RollbackTS)
	}
	return s
}

func writeStr(w *Write) string {
	s := fmt.Sprintf("%c start=%d", w.Type, w.StartTS)
	switch {
	case w.IsProtectedRollback():
		s += " protected"
	case w.HasValue:
		s += " value=" + valStr(w.ShortValue)
	}
	if w.HasOverlappedRollback {
		s += " overlapped_rollback"
	}
	if w.GCFence != 0 {
		s += fmt.Sprintf(" gc_fence=%d", w.GCFence)
	}
	return s
}

func lockInfoStr(l *kv.LockInfo) string {
	s := fmt.Sprintf("key=%s primary=%s start=%d ttl=%d type=%c", l.Key, l.Primary, l.StartTS, l.TTL, l.Type)
	if l.MinCommitTS != 0 {
		s += fmt.Sprintf(" min_commit=%d", l.MinCommitTS)
	}
	if l.UseAsyncCommit {
		s += fmt.Sprintf(" async secondaries=%q", l.Secondaries)
	}
	return s
}

func valStr(v []byte) string {
	if len(v) > 16 {
		return fmt.Sprintf("%q...(%d bytes)", v[:8], len(v))
	}
	return fmt.Sprintf("%q", v)
}

var actionNames = map[Action]string{ActionNoAction: "NoAction", ActionTTLExpireRollback: "TTLExpireRollback",
	ActionLockNotExistRollback: "LockNotExistRollback", ActionMinCommitTSPushed: "MinCommitTSPushed",
	ActionTTLExpirePessimisticRollback: "TTLExpirePessimisticRollback", ActionLockNotExistDoNothing: "LockNotExistDoNothing"}

func errStr(err error) string {
	if err == nil {
		return "ok"
	}
	var (
		locked   *kv.LockedError
		conflict *kv.WriteConflictError
	)
	switch {
	case errors.As(err, &locked):
		return "error: locked {" + lockInfoStr(&locked.Lock) + "}"
	case errors.As(err, &conflict):
		reasons := []string{"Unknown", "Optimistic", "PessimisticRetry", "SelfRolledBack", "RcCheckTs", "LazyUniquenessCheck"}
		return fmt.Sprintf("error: write conflict %s conflict_start=%d conflict_commit=%d",
			reasons[conflict.Reason], conflict.ConflictStartTS, conflict.ConflictCommitTS)
	}
	return "error: " + err.Error()
}

// args reads command arguments.
type args struct {
	td *datadriven.TestData
	t  testing.TB
}

func (a args) has(k string) bool { return a.td.HasArg(k) }

func (a args) list(k string) []string {
	arg, ok := a.td.Arg(k)
	if !ok {
		return nil
	}
	return arg.Vals
}

func (a args) str(k, def string) string {
	if l := a.list(k); len(l) > 0 {
		return l[0]
	}
	return def
}

func (a args) keys() [][]byte {
	var ks [][]byte
	for _, s := range a.list("k") {
		ks = append(ks, []byte(s))
	}
	if len(ks) == 0 {
		a.t.Fatalf("%s: missing k=", a.td.Pos)
	}
	return ks
}

func (a args) key() []byte { return a.keys()[0] }

// ts parses a number; "Nms" means physical milliseconds N (N<<18), "max"
// means MaxUint64.
func (a args) ts(k string) uint64 { return a.tsOr(k, 0) }

func (a args) tsOr(k string, def uint64) uint64 {
	s := a.str(k, "")
	if s == "" {
		return def
	}
	if s == "max" {
		return ^uint64(0)
	}
	shift := 0
	if strings.HasSuffix(s, "ms") {
		s, shift = strings.TrimSuffix(s, "ms"), 18
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		a.t.Fatalf("%s: bad %s=%q", a.td.Pos, k, s)
	}
	return n << shift
}

func (a args) readOpts() *ReadOptions {
	o := &ReadOptions{IsolationRC: a.has("rc"), KeyOnly: a.has("key_only")}
	for _, s := range a.list("resolved") {
		n, _ := strconv.ParseUint(s, 10, 64)
		o.ResolvedLocks = append(o.ResolvedLocks, n)
	}
	for _, s := range a.list("committed") {
		n, _ := strconv.ParseUint(s, 10, 64)
		o.CommittedLocks = append(o.CommittedLocks, n)
	}
	return o
}
