#!/usr/bin/env bash
# Regenerates the Go code of internal/kvproto from proto/*.proto.
# Needs protoc (Debian: protobuf-compiler) and the Go plugins:
#   go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
#   go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
# raftserverpb imports etcd raft's raftpb/raft.proto from the module cache
# (go.etcd.io/raft/v3 at the version go.mod names).
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$(go env GOPATH)/bin:$PATH"
raft_dir="$(go list -m -f '{{.Dir}}' go.etcd.io/raft/v3)"
gen() {
  local pkg=$1
  mkdir -p "$pkg"
  protoc -I proto -I "$raft_dir" \
    --go_out="$pkg" --go_opt=paths=source_relative \
    --go_opt=Mkvrpcpb.proto=github.com/strata-db/strata/internal/kvproto/kvrpcpb \
    --go-grpc_out="$pkg" --go-grpc_opt=paths=source_relative,require_unimplemented_servers=false \
    --go-grpc_opt=Mkvrpcpb.proto=github.com/strata-db/strata/internal/kvproto/kvrpcpb \
    "proto/$pkg.proto"
}
gen kvrpcpb
gen pdpb
gen raftserverpb
