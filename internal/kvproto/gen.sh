#!/usr/bin/env bash
# Regenerates the Go code of internal/kvproto from proto/*.proto.
# Needs protoc (Debian: protobuf-compiler) and the Go plugins:
#   go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
#   go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$(go env GOPATH)/bin:$PATH"
mkdir -p kvrpcpb
protoc -I proto \
  --go_out=kvrpcpb --go_opt=paths=source_relative \
  --go-grpc_out=kvrpcpb --go-grpc_opt=paths=source_relative,require_unimplemented_servers=false \
  proto/kvrpcpb.proto
