package config

import "testing"

// FuzzParse: any input gives a config or an error, never a panic, and an
// accepted config is valid.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "port = 1", "[log]\nlevel='warn'", `"raftstore.sync-log" = false`,
		`"a.b" = {c = 1}`, "[tikv-client]\nmax-batch-wait-time = 5", "[storage.block-cache]\ncapacity = \"1.5G\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		cfg, _, err := Parse(data)
		if err == nil {
			if verr := cfg.Validate(); verr != nil {
				t.Fatalf("accepted an invalid config: %v", verr)
			}
		}
	})
}
