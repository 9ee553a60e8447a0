package cluster

import (
	"fmt"
	"os"
	"path/filepath"
)

// OneMachineConfig is the config file a playground gives its processes
// when the user gives none (Options.ConfigFile): the settings for
// processes that share one machine's CPUs.
//
// raftstore.raft-max-inflight-msgs = 1: a leader keeps one append in
// flight per follower, so the proposals made meanwhile leave together
// once the follower acknowledges, instead of as an append each round.
// Measured on 2 CPUs with 1 PD, 3 KV and 1 SQL (sysbench, 16 threads,
// 4 x 100k rows; 7 alternated rounds against TiKV's 256): a follower
// received 515 appends/s instead of 1,270; medians oltp_update_non_index
// +7.8% (faster in 6 of 7 rounds), oltp_read_write +7.5% (5 of 7),
// oltp_update_index +2.0% (4 of 7), oltp_insert -5.6% (3 of 7, within
// its spread). On separate machines pipelining costs no shared CPU, so
// the key keeps TiKV's default there.
const OneMachineConfig = `# Written by strata playground: every process shares this machine.
[raftstore]
raft-max-inflight-msgs = 1
`

// OneMachineConfigName is the file's name in the playground's folder.
const OneMachineConfigName = "playground.toml"

// configFile returns the config file the playground's processes get: the
// user's, or OneMachineConfig written into dir. The second result
// describes the choice for the playground's output.
func configFile(user, dir string) (string, string, error) {
	if user != "" {
		return user, "config " + user + " (the playground's one-machine settings are not added)", nil
	}
	path := filepath.Join(dir, OneMachineConfigName)
	if err := os.WriteFile(path, []byte(OneMachineConfig), 0o644); err != nil {
		return "", "", fmt.Errorf("playground: %w", err)
	}
	return path, "config " + path + " (raftstore.raft-max-inflight-msgs = 1, for one machine; --config to choose)", nil
}
