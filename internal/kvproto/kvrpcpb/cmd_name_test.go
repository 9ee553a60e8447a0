package kvrpcpb

import (
	"slices"
	"testing"
)

// TestCmdName: every command of the batch request has its own name, and
// CmdNames lists it (the node resolves its duration series from the list).
func TestCmdName(t *testing.T) {
	oneof := (&BatchCommandsRequest_Request{}).ProtoReflect().Descriptor().Oneofs().ByName("cmd")
	seen := map[string]bool{}
	for i := 0; i < oneof.Fields().Len(); i++ {
		f := oneof.Fields().Get(i)
		r := &BatchCommandsRequest_Request{}
		m := r.ProtoReflect()
		m.Set(f, m.NewField(f))
		name := CmdName(r)
		if name == "invalid" || seen[name] {
			t.Errorf("command %s: name %q (seen before: %v)", f.Name(), name, seen[name])
		}
		seen[name] = true
		if !slices.Contains(CmdNames, name) {
			t.Errorf("CmdNames lacks %q", name)
		}
	}
	if got := CmdName(&BatchCommandsRequest_Request{}); got != "invalid" {
		t.Errorf("no command: %q, want invalid", got)
	}
	if len(seen) != len(CmdNames)-1 {
		t.Errorf("CmdNames has %d names for %d commands", len(CmdNames)-1, len(seen))
	}
}
