package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ByteSize is a size in bytes. In a config file it is an integer (bytes,
// as TiDB writes txn-total-size-limit) or a string with a unit, as TiKV
// writes them: "512MiB", "4GB", "1.5G" (K, M, G, T, P are powers of 1024,
// with or without "B" or "iB").
type ByteSize uint64

// Common sizes.
const (
	KiB ByteSize = 1 << (10 * (iota + 1))
	MiB
	GiB
	TiB
	PiB
)

// UnmarshalText parses a size.
func (b *ByteSize) UnmarshalText(text []byte) error {
	s := strings.TrimSpace(string(text))
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, unit := s[:i], strings.ToUpper(strings.TrimSpace(s[i:]))
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		return fmt.Errorf("invalid size %q (want bytes or a size like \"512MiB\", \"4GB\")", s)
	}
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I")
	mult := map[string]float64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40, "P": 1 << 50}[unit]
	if mult == 0 {
		return fmt.Errorf("invalid size %q: unknown unit", s)
	}
	v := f * mult
	if v >= math.MaxUint64 {
		return fmt.Errorf("invalid size %q: too large", s)
	}
	*b = ByteSize(v)
	return nil
}

// MarshalText writes the size in the largest unit that divides it.
func (b ByteSize) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// String is the size in the largest binary unit that divides it ("96MiB").
func (b ByteSize) String() string {
	for _, u := range []struct {
		n    ByteSize
		name string
	}{{PiB, "PiB"}, {TiB, "TiB"}, {GiB, "GiB"}, {MiB, "MiB"}, {KiB, "KiB"}} {
		if b >= u.n && b%u.n == 0 {
			return fmt.Sprintf("%d%s", b/u.n, u.name)
		}
	}
	return fmt.Sprintf("%dB", uint64(b))
}

// Duration is a time.Duration. In a config file it is a string ("10ms",
// "1h30m", "7d", as TiDB and TiKV write them) or an integer number of
// nanoseconds (as TiDB writes tikv-client.max-batch-wait-time).
type Duration time.Duration

// UnmarshalText parses a duration.
func (d *Duration) UnmarshalText(text []byte) error {
	s := strings.TrimSpace(string(text))
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		*d = Duration(n)
		return nil
	}
	var days time.Duration
	if i := strings.IndexByte(s, 'd'); i > 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil {
			return fmt.Errorf("invalid duration %q", s)
		}
		days, s = time.Duration(n)*24*time.Hour, s[i+1:]
		if s == "" {
			*d = Duration(days)
			return nil
		}
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("invalid duration %q (want e.g. \"500ms\", \"10s\", \"1h30m\")", string(text))
	}
	*d = Duration(days + v)
	return nil
}

// MarshalText writes the duration as time.Duration.String.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// String is time.Duration's form.
func (d Duration) String() string { return time.Duration(d).String() }

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }
