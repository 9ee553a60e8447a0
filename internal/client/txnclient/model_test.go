package txnclient

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

// TestRandomAgainstModel runs random single-client transactions (sets,
// deletes, gets, batch gets, forward and reverse scans, commits and
// rollbacks) and compares every read with an in-memory model: committed
// map plus the txn's own writes.
func TestRandomAgainstModel(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cl := newCluster(t)
			opts := m.opts
			opts.ScanBatchSize = 3
			c := cl.client(opts)
			rng := rand.New(rand.NewPCG(1, uint64(len(m.name))))
			committed := map[string]string{}
			key := func() string { return fmt.Sprintf("k%02d", rng.IntN(30)) }
			ctx := context.Background()
			for round := 0; round < 60; round++ {
				tx := begin(t, c)
				view := map[string]string{}
				for k, v := range committed {
					view[k] = v
				}
				for op := 0; op < 1+rng.IntN(12); op++ {
					switch rng.IntN(6) {
					case 0, 1:
						k, v := key(), fmt.Sprintf("v%d.%d", round, op)
						if err := tx.Set(kv.Key(k), []byte(v)); err != nil {
							t.Fatal(err)
						}
						view[k] = v
					case 2:
						k := key()
						if err := tx.Delete(kv.Key(k)); err != nil {
							t.Fatal(err)
						}
						delete(view, k)
					case 3:
						k := key()
						want, ok := view[k]
						if !ok {
							want = "<nil>"
						}
						if got := get(t, tx, k); got != want {
							t.Fatalf("round %d: get %s = %s, want %s", round, k, got, want)
						}
					case 4:
						keys := []kv.Key{kv.Key(key()), kv.Key(key()), kv.Key(key())}
						got, err := tx.BatchGet(ctx, keys)
						if err != nil {
							t.Fatal(err)
						}
						for _, k := range keys {
							if want, ok := view[string(k)]; ok != (got[string(k)] != nil) || ok && want != string(got[string(k)]) {
								t.Fatalf("round %d: batch get %s = %q, want %q", round, k, got[string(k)], want)
							}
						}
					case 5:
						a, b := key(), key()
						if a > b {
							a, b = b, a
						}
						reverse := rng.IntN(2) == 0
						if got, want := iterString(t, tx, a, b, reverse), modelScan(view, a, b, reverse); got != want {
							t.Fatalf("round %d: scan [%s,%s) reverse=%v:\n got %s\nwant %s", round, a, b, reverse, got, want)
						}
					}
				}
				if rng.IntN(4) == 0 {
					_ = tx.Rollback()
					continue
				}
				if err := tx.Commit(ctx); err != nil && !errors.Is(err, kv.ErrWriteConflict) {
					t.Fatal(err)
				} else if err == nil {
					committed = view
				}
			}
		})
	}
}

func modelScan(view map[string]string, a, b string, reverse bool) string {
	var keys []string
	for k := range view {
		if k >= a && k < b {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if reverse {
		sort.Sort(sort.Reverse(sort.StringSlice(keys)))
	}
	var out []string
	for _, k := range keys {
		out = append(out, k+"="+view[k])
	}
	return strings.Join(out, " ")
}
