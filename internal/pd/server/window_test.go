package server_test

import (
	"context"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/server/pdtest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// HTTP/2 frame types (RFC 9113 §6).
const (
	frameSettings     = 0x4
	framePing         = 0x6
	frameWindowUpdate = 0x8
)

// frameCounter wraps a client connection and counts the HTTP/2 frames
// the server sends, by type, from the 9-byte frame headers in the bytes
// read (the server sends no connection preface, only frames).
type frameCounter struct {
	net.Conn
	mu      sync.Mutex
	pending []byte      // bytes of an incomplete frame header
	skip    int         // payload bytes of the current frame still to come
	counts  map[int]int // frame type -> frames
}

func (c *frameCounter) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.mu.Lock()
	defer c.mu.Unlock()
	data := b[:n]
	for len(data) > 0 {
		if c.skip > 0 {
			k := min(c.skip, len(data))
			c.skip -= k
			data = data[k:]
			continue
		}
		k := min(9-len(c.pending), len(data))
		c.pending = append(c.pending, data[:k]...)
		data = data[k:]
		if len(c.pending) == 9 {
			h := c.pending
			c.skip = int(h[0])<<16 | int(h[1])<<8 | int(h[2])
			c.counts[int(h[3])]++
			c.pending = c.pending[:0]
		}
	}
	return n, err
}

func (c *frameCounter) snapshot() map[int]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[int]int, len(c.counts))
	for k, v := range c.counts {
		out[k] = v
	}
	return out
}

// TestTSOAnswersCarryNoFlowControlFrames: PD's gRPC server (etcd's) runs
// with static flow-control windows, as every other end of Strata's
// connections does. With gRPC's default dynamic window it measured the
// bandwidth-delay product by sending a PING, with a WINDOW_UPDATE, ahead
// of nearly every TSO answer, which the client had to read and answer.
func TestTSOAnswersCarryNoFlowControlFrames(t *testing.T) {
	c := pdtest.Start(t, 1, nil)
	waitServing(t, dial(t, c.Addrs()[0]))

	var dialed atomic.Pointer[frameCounter]
	conn, err := grpc.NewClient(strings.TrimPrefix(c.Addrs()[0], "http://"), append(kvproto.DialOptions(),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		// Replaces DialOptions' local-socket dialer (the last one given
		// wins): the frames are counted on a plain TCP connection.
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
			nc, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
			if err != nil {
				return nil, err
			}
			fc := &frameCounter{Conn: nc, counts: map[int]int{}}
			dialed.Store(fc)
			return fc, nil
		}))...)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, err := pdpb.NewPDClient(conn).Tso(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The first answer is past the connection's set-up (SETTINGS, the
	// connection window's first update); count from there.
	const rounds = 200
	var before map[int]int
	for i := 0; i <= rounds; i++ {
		if i == 1 {
			before = dialed.Load().snapshot()
		}
		if err := st.Send(&pdpb.TsoRequest{Count: 1}); err != nil {
			t.Fatal(err)
		}
		resp, err := st.Recv()
		if err != nil || resp.Header.GetError() != nil || resp.Count != 1 {
			t.Fatalf("Tso %d: %v %v", i, resp, err)
		}
	}
	after := dialed.Load().snapshot()
	if before[frameSettings] == 0 {
		t.Fatalf("frame counter saw no SETTINGS frame at set-up (%v): it does not parse the stream", before)
	}
	for _, ft := range []int{framePing, frameWindowUpdate} {
		if d := after[ft] - before[ft]; d > 0 {
			t.Errorf("%d frames of type %#x over %d TSO answers (counts before %v, after %v)", d, ft, rounds, before, after)
		}
	}
}
