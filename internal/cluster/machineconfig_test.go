package cluster

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-db/strata/internal/config"
)

// Without a config file of the user's, the playground writes its
// one-machine settings into its folder and gives that file; with one, it
// gives the user's file unchanged and writes nothing.
func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	path, desc, err := configFile("", dir)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, OneMachineConfigName) || desc == "" {
		t.Fatalf("configFile = %q, %q", path, desc)
	}
	cfg, warns, err := config.Load(path)
	if err != nil || len(warns) != 0 {
		t.Fatalf("load %s: %v %v", path, warns, err)
	}
	if cfg.Raftstore.RaftMaxInflightMsgs != 1 {
		t.Fatalf("raftstore.raft-max-inflight-msgs = %d, want 1", cfg.Raftstore.RaftMaxInflightMsgs)
	}
	if def := config.Default().Raftstore.RaftMaxInflightMsgs; def == 1 {
		t.Fatalf("the default is the playground's value %d", def)
	}

	other := t.TempDir()
	user := filepath.Join(other, "mine.toml")
	if got, _, err := configFile(user, other); err != nil || got != user {
		t.Fatalf("configFile(%q) = %q, %v", user, got, err)
	}
	if _, err := os.Stat(filepath.Join(other, OneMachineConfigName)); !os.IsNotExist(err) {
		t.Fatalf("%s written beside a user's config: %v", OneMachineConfigName, err)
	}
}
