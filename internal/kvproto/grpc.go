// Package kvproto holds the protobuf and gRPC definitions of Strata's
// RPCs (generated, in its subpackages) and the transport settings every
// end of them shares.
package kvproto

import "google.golang.org/grpc"

// GRPCWindowSize is the static per-stream and per-connection flow-control
// window of every gRPC connection between Strata processes (SQL to store,
// store to store, anything to PD). A window set by hand turns off gRPC's
// bandwidth-delay probing, which sends a PING with almost every received
// message; 16 MiB covers the largest batches without WINDOW_UPDATE churn.
const GRPCWindowSize = 16 << 20

// ServerWindows are the server options that set GRPCWindowSize; every
// Strata gRPC server takes them.
func ServerWindows() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.InitialWindowSize(GRPCWindowSize), grpc.InitialConnWindowSize(GRPCWindowSize)}
}

// DialOptions are the dial options every connection between Strata
// processes takes: GRPCWindowSize, and a dialer that goes to the server's
// local socket (ListenLocal) when one listens in this network namespace
// under the resolved address and is held by a trusted process, over TCP
// otherwise.
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithInitialWindowSize(GRPCWindowSize), grpc.WithInitialConnWindowSize(GRPCWindowSize),
		grpc.WithContextDialer(dialLocalFirst),
	}
}
