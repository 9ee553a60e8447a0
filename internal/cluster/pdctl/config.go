package pdctl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Errors of ConfigUpdate (wrapped): a key the current config does not
// have, a value that does not parse as the key's type.
var (
	ErrUnknownKey = errors.New("unknown config key")
	ErrBadValue   = errors.New("bad config value")
)

// FlattenConfig turns PD's config JSON ({"schedule": {"max-store-down-time":
// ...}, ...}) into "section.key" → value, values decoded with
// json.Number for numbers.
func FlattenConfig(raw []byte) (map[string]any, error) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("decode config: %w", err)
	}
	out := map[string]any{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			for k, sv := range sub {
				walk(join(prefix, k), sv)
			}
			return
		}
		out[prefix] = v
	}
	for k, v := range m {
		walk(k, v)
	}
	return out, nil
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// WriteConfig prints the flattened config as sorted KEY VALUE lines.
func WriteConfig(w io.Writer, flat map[string]any) error {
	keys := make([]string, 0, len(flat))
	for k := range flat {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE")
	for _, k := range keys {
		fmt.Fprintf(tw, "%s\t%s\n", k, FormatValue(flat[k]))
	}
	return tw.Flush()
}

// FormatValue renders a config value: lists comma-separated ("" when
// empty), everything else as itself.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return `""`
	case string:
		if x == "" {
			return `""`
		}
		return x
	case []string:
		if len(x) == 0 {
			return `""`
		}
		return strings.Join(x, ",")
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = FormatValue(e)
		}
		if len(parts) == 0 {
			return `""`
		}
		return strings.Join(parts, ",")
	default:
		return fmt.Sprint(x)
	}
}

// ResolveKey finds key in the flattened config: "section.key" as is, or a
// bare "key" that exactly one section has. It returns the full name.
func ResolveKey(flat map[string]any, key string) (string, error) {
	if _, ok := flat[key]; ok {
		return key, nil
	}
	var found []string
	for k := range flat {
		if strings.HasSuffix(k, "."+key) {
			found = append(found, k)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("%w %q", ErrUnknownKey, key)
	default:
		sort.Strings(found)
		return "", fmt.Errorf("%w %q: ambiguous, one of %s", ErrUnknownKey, key, strings.Join(found, ", "))
	}
}

// ConfigUpdate builds the body of POST /pd/api/v1/config that sets key
// (see ResolveKey) to value, parsed after the key's current type: a
// number, a boolean, a comma-separated list, or a string (durations such
// as "30m" stay strings). It returns the full key name too.
func ConfigUpdate(flat map[string]any, key, value string) (string, map[string]any, error) {
	full, err := ResolveKey(flat, key)
	if err != nil {
		return "", nil, err
	}
	var v any = value
	switch flat[full].(type) {
	case json.Number:
		if _, err := strconv.ParseFloat(value, 64); err != nil {
			return "", nil, fmt.Errorf("%w: %s wants a number, not %q", ErrBadValue, full, value)
		}
		v = json.Number(value)
	case bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return "", nil, fmt.Errorf("%w: %s wants true or false, not %q", ErrBadValue, full, value)
		}
		v = b
	case []any, nil:
		list := []string{}
		for _, p := range strings.Split(value, ",") {
			if p = strings.TrimSpace(p); p != "" {
				list = append(list, p)
			}
		}
		v = list
	}
	return full, map[string]any{full: v}, nil
}
