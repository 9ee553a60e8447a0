package txnclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

func TestReadYourWrites(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		put(t, c, "a", "a0", "b", "b0")
		tx := begin(t, c)
		if err := tx.Set(kv.Key("a"), []byte("a1")); err != nil {
			t.Fatal(err)
		}
		if err := tx.Delete(kv.Key("b")); err != nil {
			t.Fatal(err)
		}
		if got := get(t, tx, "a"); got != "a1" {
			t.Fatalf("own write: got %s", got)
		}
		if got := get(t, tx, "b"); got != "<nil>" {
			t.Fatalf("own delete: got %s", got)
		}
		m, err := tx.BatchGet(context.Background(), []kv.Key{kv.Key("a"), kv.Key("b"), kv.Key("c")})
		if err != nil || len(m) != 1 || string(m["a"]) != "a1" {
			t.Fatalf("BatchGet = %v, %v", m, err)
		}
		if err := tx.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		if tx.CommitTS() <= tx.StartTS() {
			t.Fatalf("commit ts %d <= start ts %d", tx.CommitTS(), tx.StartTS())
		}
		r := begin(t, c)
		if a, b := get(t, r, "a"), get(t, r, "b"); a != "a1" || b != "<nil>" {
			t.Fatalf("after commit: a=%s b=%s", a, b)
		}
		if err := tx.Set(kv.Key("x"), nil); !errors.Is(err, kv.ErrTxnClosed) {
			t.Fatalf("Set after commit: %v", err)
		}
	})
}

func iterString(t *testing.T, tx *Txn, start, end string, reverse bool) string {
	t.Helper()
	var (
		it  kv.Iterator
		err error
	)
	if reverse {
		it, err = tx.IterReverse(context.Background(), kv.Key(start), kv.Key(end))
	} else {
		it, err = tx.Iter(context.Background(), kv.Key(start), kv.Key(end))
	}
	if err != nil {
		t.Fatal(err)
	}
	return drain(t, it)
}

func TestIterMergesBuffer(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cl := newCluster(t)
			opts := m.opts
			opts.ScanBatchSize = 2 // force pagination
			c := cl.client(opts)
			var kvs []string
			for _, k := range []string{"a", "b", "c", "d", "e", "f", "g"} {
				kvs = append(kvs, k, strings.ToUpper(k))
			}
			put(t, c, kvs...)
			tx := begin(t, c)
			for _, op := range []struct{ k, v string }{{"b", "B2"}, {"c", ""}, {"cc", "CC"}, {"f", ""}, {"h", "H"}, {"0", "Z"}} {
				var err error
				if op.v == "" {
					err = tx.Delete(kv.Key(op.k))
				} else {
					err = tx.Set(kv.Key(op.k), []byte(op.v))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, tc := range []struct {
				start, end string
				reverse    bool
				want       string
			}{
				{"", "", false, "0=Z a=A b=B2 cc=CC d=D e=E g=G h=H"},
				{"", "", true, "h=H g=G e=E d=D cc=CC b=B2 a=A 0=Z"},
				{"b", "f", false, "b=B2 cc=CC d=D e=E"},
				{"b", "f", true, "e=E d=D cc=CC b=B2"},
				{"c", "cd", false, "cc=CC"},
				{"x", "", false, ""},
			} {
				if got := iterString(t, tx, tc.start, tc.end, tc.reverse); got != tc.want {
					t.Errorf("iter [%q,%q) reverse=%v: got %q, want %q", tc.start, tc.end, tc.reverse, got, tc.want)
				}
			}
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}
			// the rolled-back writes never reached storage
			r := begin(t, c)
			if got := iterString(t, r, "", "", false); got != "a=A b=B c=C d=D e=E f=F g=G" {
				t.Errorf("after rollback: %s", got)
			}
		})
	}
}

func TestLargeTxnManyBatches(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		tx := begin(t, c)
		val := strings.Repeat("v", 300) // > 255 bytes: stored out of line
		for i := 0; i < 600; i++ {
			if err := tx.Set(kv.Key(fmt.Sprintf("k%04d", i)), []byte(val)); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		r := begin(t, c)
		it, err := r.Iter(context.Background(), kv.Key("k"), kv.Key("l"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for ; it.Valid(); n++ {
			if string(it.Value()) != val {
				t.Fatalf("value of %s", it.Key())
			}
			if err := it.Next(); err != nil {
				t.Fatal(err)
			}
		}
		if n != 600 {
			t.Fatalf("read %d keys, want 600", n)
		}
	})
}
