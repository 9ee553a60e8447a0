package pdctl

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	pdserver "github.com/strata-db/strata/internal/pd/server"
)

// DisconnectedAfter is how long without a heartbeat makes an Up store
// show as Disconnected (PD's rule).
const DisconnectedAfter = 20 * time.Second

// WriteStores prints one line per store: id, address, state, labels,
// region and leader counts, and how long ago its last heartbeat was
// (relative to now).
func WriteStores(w io.Writer, s pdserver.StoresJSON, now time.Time) error {
	stores := append([]pdserver.StoreInfoJSON(nil), s.Stores...)
	sort.Slice(stores, func(i, j int) bool { return stores[i].Store.ID < stores[j].Store.ID })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tADDRESS\tSTATE\tLABELS\tREGIONS\tLEADERS\tLAST HEARTBEAT")
	for _, st := range stores {
		state := st.Store.StateName
		hb := "never"
		if ts, err := time.Parse(time.RFC3339Nano, st.Status.LastHeartbeatTS); err == nil {
			age := now.Sub(ts)
			hb = formatAge(age) + " ago"
			if state == "Up" && age > DisconnectedAfter {
				state = "Disconnected"
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%d\t%s\n", st.Store.ID, st.Store.Address, state,
			formatLabels(st.Store.Labels), st.Status.RegionCount, st.Status.LeaderCount, hb)
	}
	fmt.Fprintf(tw, "(%s)\n", count(len(stores), "store"))
	return tw.Flush()
}

func formatLabels(l map[string]string) string {
	if len(l) == 0 {
		return "-"
	}
	parts := make([]string, 0, len(l))
	for k, v := range l {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// formatAge rounds d for people: 850ms, 4.2s, 3m10s, 2h5m, 3d4h.
func formatAge(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	case d < time.Hour:
		return d.Round(time.Second).String()
	case d < 48*time.Hour:
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	default:
		days := int(d / (24 * time.Hour))
		return fmt.Sprintf("%dd%dh", days, int((d-time.Duration(days)*24*time.Hour)/time.Hour))
	}
}

// formatBytes is a size in B, KiB, MiB or GiB.
func formatBytes(n uint64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%dB", n)
	case n < k*k:
		return fmt.Sprintf("%.1fKiB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1fMiB", float64(n)/(k*k))
	default:
		return fmt.Sprintf("%.1fGiB", float64(n)/(k*k*k))
	}
}

// count is "1 region", "3 regions".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
