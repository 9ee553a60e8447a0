package kvproto

import (
	"fmt"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/protoadapt"
)

// Codec is the protobuf codec of every gRPC connection between Strata
// processes (grpc.ForceCodecV2 on clients, grpc.ForceServerCodecV2 on the
// store): gRPC's own "proto" codec, on the same wire, except that it takes
// its buffers from BufferPool. gRPC's codec takes them from its global
// default pool whatever pool the connection was given, so marshalling a
// batch response and gathering one that spans several HTTP/2 frames each
// cleared a 1 MiB buffer.
var Codec encoding.CodecV2 = codec{}

type codec struct{}

// Name is the content subtype, the same as gRPC's codec: peers see no
// difference.
func (codec) Name() string { return "proto" }

// Marshal encodes v into one buffer of BufferPool (a small message into a
// plain slice, as gRPC does).
func (codec) Marshal(v any) (mem.BufferSlice, error) {
	m := messageOf(v)
	if m == nil {
		return nil, fmt.Errorf("kvproto: cannot marshal %T, want a proto.Message", v)
	}
	size := proto.Size(m)
	// Safe after Size, on a message no one mutates meanwhile.
	opts := proto.MarshalOptions{UseCachedSize: true}
	if mem.IsBelowBufferPoolingThreshold(size) {
		b, err := opts.Marshal(m)
		if err != nil {
			return nil, err
		}
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	buf := BufferPool.Get(size)
	if _, err := opts.MarshalAppend((*buf)[:0], m); err != nil {
		BufferPool.Put(buf)
		return nil, err
	}
	return mem.BufferSlice{mem.NewBuffer(buf, BufferPool)}, nil
}

// Unmarshal decodes data into v, gathering a message that arrived in
// several frames into one buffer of BufferPool. proto.Unmarshal copies
// what it keeps, so the buffer goes back at once.
func (codec) Unmarshal(data mem.BufferSlice, v any) error {
	m := messageOf(v)
	if m == nil {
		return fmt.Errorf("kvproto: cannot unmarshal into %T, want a proto.Message", v)
	}
	buf := data.MaterializeToBuffer(BufferPool)
	defer buf.Free()
	return proto.Unmarshal(buf.ReadOnlyData(), m)
}

func messageOf(v any) proto.Message {
	switch v := v.(type) {
	case protoadapt.MessageV2:
		return v
	case protoadapt.MessageV1:
		return protoadapt.MessageV2Of(v)
	}
	return nil
}
