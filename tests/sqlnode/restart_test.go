package sqlnode

import (
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRestartUnderWrites stops `strata server` while writers insert rows,
// by SIGTERM and by kill -9, and starts it again on the same data dir:
// every acknowledged insert is there and the catalog is intact.
func TestRestartUnderWrites(t *testing.T) {
	for _, how := range []string{"SIGTERM", "kill -9"} {
		t.Run(how, func(t *testing.T) {
			n := startServer(t)
			db := n.db("")
			for _, q := range []string{"CREATE DATABASE r", "CREATE TABLE r.t (id BIGINT PRIMARY KEY, w INT NOT NULL, v VARCHAR(64), KEY w (w))"} {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			var (
				acked  sync.Map
				nAcked atomic.Int64
				stop   = make(chan struct{})
				half   = make(chan struct{})
				once   sync.Once
				wg     sync.WaitGroup
			)
			for w := 0; w < 4; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						id := int64(w)<<32 | int64(i)
						if _, err := db.Exec("INSERT INTO r.t VALUES (?, ?, ?)", id, w, fmt.Sprintf("row %d", i)); err != nil {
							continue // the server is going away: not acknowledged
						}
						acked.Store(id, true)
						if nAcked.Add(1) == 200 {
							once.Do(func() { close(half) })
						}
					}
				}(w)
			}
			select {
			case <-half:
			case <-time.After(2 * time.Minute):
				t.Fatalf("no progress: %d inserts acknowledged", nAcked.Load())
			}
			if how == "SIGTERM" {
				if err := n.proc.Stop(30 * time.Second); err != nil {
					t.Errorf("SIGTERM: %v", err)
				}
			} else {
				n.proc.Kill()
			}
			close(stop)
			wg.Wait()
			n.start()
			db2 := n.db("")
			var create string
			if err := db2.QueryRow("SHOW CREATE TABLE r.t").Scan(new(string), &create); err != nil {
				t.Fatalf("catalog after restart: %v", err)
			}
			missing := 0
			acked.Range(func(k, _ any) bool {
				var id int64
				if err := db2.QueryRow("SELECT id FROM r.t WHERE id = ?", k.(int64)).Scan(&id); err != nil {
					if err == sql.ErrNoRows {
						missing++
						return true
					}
					t.Fatalf("read after restart: %v", err)
				}
				return true
			})
			var count int64
			if err := db2.QueryRow("SELECT COUNT(*) FROM r.t").Scan(&count); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s after %d acknowledged inserts; %d rows after restart", how, nAcked.Load(), count)
			if missing > 0 || count < nAcked.Load() {
				t.Errorf("%d acknowledged inserts lost (%d rows, %d acknowledged)", missing, count, nAcked.Load())
			}
			// The index agrees with the rows.
			var viaIndex int64
			if err := db2.QueryRow("SELECT COUNT(*) FROM r.t WHERE w >= 0").Scan(&viaIndex); err != nil || viaIndex != count {
				t.Errorf("rows through the index: %d, %v; want %d", viaIndex, err, count)
			}
		})
	}
}
