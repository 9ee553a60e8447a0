package sysvar

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// MySQL 8 accepts offsets from -13:59 to +14:00.
const (
	minOffsetMinutes = -(13*60 + 59)
	maxOffsetMinutes = 14 * 60
)

var errBadTimeZone = errors.New("bad time zone")

// normalizeTimeZone returns the canonical spelling of a time_zone value:
// "SYSTEM", "+hh:mm" / "-hh:mm", or a zone name that time.LoadLocation
// knows (kept as written).
func normalizeTimeZone(v string) (string, error) {
	t := strings.TrimSpace(v)
	if strings.EqualFold(t, "SYSTEM") {
		return "SYSTEM", nil
	}
	if m, ok, err := parseOffset(t); ok {
		if err != nil {
			return "", err
		}
		sign := '+'
		if m < 0 {
			sign, m = '-', -m
		}
		return fmt.Sprintf("%c%02d:%02d", sign, m/60, m%60), nil
	}
	if _, err := loadLocation(t); err != nil {
		return "", errBadTimeZone
	}
	return t, nil
}

// parseOffset parses "+h:mm" / "-hh:mm"; ok reports the value had that
// shape.
func parseOffset(t string) (minutes int, ok bool, err error) {
	if len(t) < 4 || (t[0] != '+' && t[0] != '-') {
		return 0, false, nil
	}
	h, m, found := strings.Cut(t[1:], ":")
	if !found || len(h) < 1 || len(h) > 2 || len(m) != 2 || !digits(h) || !digits(m) {
		return 0, true, errBadTimeZone
	}
	hh := atoi(h)
	mm := atoi(m)
	if mm >= 60 {
		return 0, true, errBadTimeZone
	}
	minutes = hh*60 + mm
	if t[0] == '-' {
		minutes = -minutes
	}
	if minutes < minOffsetMinutes || minutes > maxOffsetMinutes {
		return 0, true, errBadTimeZone
	}
	return minutes, true, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

var locCache sync.Map // name → *time.Location

func loadLocation(name string) (*time.Location, error) {
	if l, ok := locCache.Load(name); ok {
		return l.(*time.Location), nil
	}
	if name == "" || strings.EqualFold(name, "local") {
		return nil, errBadTimeZone
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	locCache.Store(name, l)
	return l, nil
}

// Location returns the *time.Location of a normalized time_zone value;
// SYSTEM is system.
func Location(tz string, system *time.Location) *time.Location {
	if tz == "SYSTEM" {
		return system
	}
	if m, ok, err := parseOffset(tz); ok && err == nil {
		return time.FixedZone(tz, m*60)
	}
	if l, err := loadLocation(tz); err == nil {
		return l
	}
	return system
}
