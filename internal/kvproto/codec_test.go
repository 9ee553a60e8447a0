package kvproto

import (
	"bytes"
	"testing"

	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// Messages round-trip through Codec, small ones and pooled ones, and a
// message split over several buffers (frames) is gathered whole.
func TestCodecRoundTrip(t *testing.T) {
	for _, n := range []int{1, 10, 500} { // 500 pairs: ~60 KiB, pooled
		resp := &kvrpcpb.ScanResponse{}
		for i := range n {
			resp.Pairs = append(resp.Pairs, &kvrpcpb.KvPair{
				Key: []byte{byte(i >> 8), byte(i)}, Value: bytes.Repeat([]byte{byte(i)}, 120),
			})
		}
		data, err := Codec.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		wire := data.Materialize()
		data.Free()
		if want, _ := proto.Marshal(resp); !bytes.Equal(wire, want) {
			t.Fatalf("%d pairs: Codec's encoding differs from proto.Marshal's", n)
		}
		// As frames of at most 16 KiB.
		var frames mem.BufferSlice
		for rest := wire; len(rest) > 0; {
			k := min(len(rest), 16<<10)
			frames = append(frames, mem.Copy(rest[:k], BufferPool))
			rest = rest[k:]
		}
		got := &kvrpcpb.ScanResponse{}
		if err := Codec.Unmarshal(frames, got); err != nil {
			t.Fatal(err)
		}
		frames.Free()
		if !proto.Equal(got, resp) {
			t.Fatalf("%d pairs: round trip changed the message", n)
		}
	}
}

func TestCodecRejectsNonProto(t *testing.T) {
	if _, err := Codec.Marshal(struct{}{}); err == nil {
		t.Fatal("Marshal of a struct: no error")
	}
	if err := Codec.Unmarshal(nil, new(int)); err == nil {
		t.Fatal("Unmarshal into an int: no error")
	}
}
