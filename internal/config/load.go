package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Load reads the TOML file at path over the defaults. It returns the
// config, warnings (one per key Strata does not know, which is accepted
// and ignored so that TiDB and TiKV files load), and an error for an
// unreadable or malformed file, a value of the wrong type or an invalid
// value, naming the key and, where known, the line.
func Load(path string) (*Config, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("config: %w", err)
	}
	cfg, warns, err := Parse(string(data))
	if err != nil {
		return nil, warns, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, warns, nil
}

// Parse is Load of a file's contents.
//
// Besides TOML tables, it accepts TiUP's flattened keys: a quoted key with
// dots, at top level or in a table, means the nested key
// ("prepared-plan-cache.enabled" = true is [prepared-plan-cache]
// enabled = true), as TiUP topology server_configs write them.
func Parse(data string) (*Config, []string, error) {
	cfg := Default()
	md, err := toml.Decode(data, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("config: %w", err)
	}
	var warns []string
	var flat []toml.Key
	for _, k := range topMost(md.Undecoded()) {
		if isFlattened(k) {
			flat = append(flat, k)
			continue
		}
		warns = append(warns, unknownKey(k.String()))
	}
	if len(flat) > 0 {
		var raw map[string]any
		if _, err := toml.Decode(data, &raw); err != nil {
			return nil, nil, fmt.Errorf("config: %w", err)
		}
		for _, k := range flat {
			w, err := cfg.applyValue(expand(k), lookupRaw(raw, k))
			if err != nil {
				return nil, nil, fmt.Errorf("config: %s%w", lineOf(data, k[len(k)-1]), err)
			}
			warns = append(warns, w...)
		}
	}
	if cfg.Log.Level == Default().Log.Level && cfg.LegacyLogLevel != "" && !md.IsDefined("log", "level") {
		cfg.Log.Level = cfg.LegacyLogLevel
	}
	if cfg.Log.File.Filename == "" && cfg.LegacyLogFile != "" {
		cfg.Log.File.Filename = cfg.LegacyLogFile
	}
	if err := cfg.Validate(); err != nil {
		return nil, warns, err
	}
	sort.Strings(warns)
	return cfg, warns, nil
}

// Apply sets the keys of m over c, as a topology's server_configs give
// them: m may nest maps, and any key may be dotted
// ({"log.level": "error", "raftstore": {"sync-log": true}}). It returns
// warnings for unknown keys and an error naming a key whose value has the
// wrong type or is invalid; c is validated afterwards.
func (c *Config) Apply(m map[string]any) ([]string, error) {
	var warns []string
	var walk func(prefix []string, m map[string]any) error
	walk = func(prefix []string, m map[string]any) error {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			path := append(append([]string(nil), prefix...), strings.Split(k, ".")...)
			if sub, ok := m[k].(map[string]any); ok && !c.isMapField(path) {
				if err := walk(path, sub); err != nil {
					return err
				}
				continue
			}
			w, err := c.applyValue(path, m[k])
			if err != nil {
				return fmt.Errorf("config: %w", err)
			}
			warns = append(warns, w...)
		}
		return nil
	}
	if err := walk(nil, m); err != nil {
		return warns, err
	}
	return warns, c.Validate()
}

// isMapField reports whether path names a map-valued field (server.labels),
// whose nested keys are data, not config keys.
func (c *Config) isMapField(path []string) bool {
	return len(path) == 2 && path[0] == "server" && path[1] == "labels"
}

// applyValue decodes one value at the nested key path into c, through a
// one-key TOML document, so that it gets exactly the types and checks of a
// file.
func (c *Config) applyValue(path []string, v any) ([]string, error) {
	doc := map[string]any{path[len(path)-1]: v}
	for i := len(path) - 2; i >= 0; i-- {
		doc = map[string]any{path[i]: doc}
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
		return nil, fmt.Errorf("key %q: %w", strings.Join(path, "."), err)
	}
	md, err := toml.Decode(buf.String(), c)
	if err != nil {
		return nil, fmt.Errorf("key %q: %s", strings.Join(path, "."), stripTOMLPrefix(err))
	}
	var warns []string
	for _, k := range topMost(md.Undecoded()) {
		key := expand(k)
		if len(key) < len(path) && slices.Equal(key, path[:len(key)]) {
			key = path // an unknown table made for path: name what was written
		}
		warns = append(warns, unknownKey(strings.Join(key, ".")))
	}
	return warns, nil
}

var tomlPrefix = regexp.MustCompile(`^toml: (line \d+ )?(\(last key "[^"]*"\): )?`)

func stripTOMLPrefix(err error) string {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return pe.Message
	}
	return tomlPrefix.ReplaceAllString(err.Error(), "")
}

func unknownKey(k string) string {
	return fmt.Sprintf("unknown config key %q ignored", strings.ReplaceAll(k, `"`, ""))
}

// topMost drops the keys inside another undecoded key (the keys of an
// unknown table), so each unknown table is one warning.
func topMost(keys []toml.Key) []toml.Key {
	seen := map[string]bool{}
	var out []toml.Key
	for _, k := range keys {
		inside := false
		for i := 1; i < len(k); i++ {
			if seen[k[:i].String()] {
				inside = true
				break
			}
		}
		seen[k.String()] = true
		if !inside {
			out = append(out, k)
		}
	}
	return out
}

func isFlattened(k toml.Key) bool {
	for _, p := range k {
		if strings.Contains(p, ".") {
			return true
		}
	}
	return false
}

// expand splits the dotted parts of k.
func expand(k toml.Key) []string {
	var out []string
	for _, p := range k {
		out = append(out, strings.Split(p, ".")...)
	}
	return out
}

func lookupRaw(raw map[string]any, k toml.Key) any {
	var cur any = raw
	for _, p := range k {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

// lineOf finds the line of a quoted key in data, for error messages.
func lineOf(data, key string) string {
	for i, line := range strings.Split(data, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, `"`+key+`"`) || strings.HasPrefix(t, `'`+key+`'`) {
			return fmt.Sprintf("line %d: ", i+1)
		}
	}
	return ""
}
