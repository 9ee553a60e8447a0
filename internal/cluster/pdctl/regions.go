package pdctl

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	pdserver "github.com/strata-db/strata/internal/pd/server"
)

// WriteRegions prints one line per region in key order: id, start and end
// key (decoded, see FormatKey), leader store, peers' stores (a learner
// marked L), approximate size and keys.
func WriteRegions(w io.Writer, rs pdserver.RegionsJSON) error {
	regions := append([]pdserver.RegionJSON(nil), rs.Regions...)
	sort.Slice(regions, func(i, j int) bool { return regions[i].StartKey < regions[j].StartKey })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTART KEY\tEND KEY\tLEADER\tPEERS\tSIZE\tKEYS")
	for _, r := range regions {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\n", r.ID, FormatKey(r.StartKey, true), FormatKey(r.EndKey, false),
			leaderStore(r), peerStores(r.Peers), formatBytes(r.ApproximateSize), r.ApproximateKeys)
	}
	fmt.Fprintf(tw, "(%s)\n", count(len(regions), "region"))
	return tw.Flush()
}

func leaderStore(r pdserver.RegionJSON) string {
	if r.Leader == nil || r.Leader.StoreID == 0 {
		return "-"
	}
	return strconv.FormatUint(r.Leader.StoreID, 10)
}

func isLearner(p pdserver.PeerJSON) bool { return strings.Contains(p.Role, "Learner") }

// peerStores lists the peers' store ids, "3L" for a learner on store 3.
func peerStores(peers []pdserver.PeerJSON) string {
	if len(peers) == 0 {
		return "-"
	}
	parts := make([]string, len(peers))
	for i, p := range peers {
		parts[i] = strconv.FormatUint(p.StoreID, 10)
		if isLearner(p) {
			parts[i] += "L"
		}
	}
	return strings.Join(parts, ",")
}

func peerList(peers []pdserver.PeerJSON) string {
	if len(peers) == 0 {
		return "-"
	}
	parts := make([]string, len(peers))
	for i, p := range peers {
		parts[i] = fmt.Sprintf("peer %d on store %d (%s)", p.ID, p.StoreID, p.Role)
	}
	return strings.Join(parts, ", ")
}

// WriteRegion prints one region in detail.
func WriteRegion(w io.Writer, r pdserver.RegionJSON) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "region\t%d\n", r.ID)
	fmt.Fprintf(tw, "start key\t%s\n", keyDetail(r.StartKey, true))
	fmt.Fprintf(tw, "end key\t%s\n", keyDetail(r.EndKey, false))
	fmt.Fprintf(tw, "epoch\tconf_ver %d, version %d\n", r.Epoch.ConfVer, r.Epoch.Version)
	leader := "-"
	if r.Leader != nil {
		leader = fmt.Sprintf("peer %d on store %d", r.Leader.ID, r.Leader.StoreID)
	}
	fmt.Fprintf(tw, "leader\t%s\n", leader)
	fmt.Fprintf(tw, "peers\t%s\n", peerList(r.Peers))
	if len(r.DownPeers) > 0 {
		parts := make([]string, len(r.DownPeers))
		for i, d := range r.DownPeers {
			parts[i] = fmt.Sprintf("peer %d on store %d (down %ds)", d.Peer.ID, d.Peer.StoreID, d.DownSeconds)
		}
		fmt.Fprintf(tw, "down peers\t%s\n", strings.Join(parts, ", "))
	}
	if len(r.PendingPeers) > 0 {
		fmt.Fprintf(tw, "pending peers\t%s\n", peerList(r.PendingPeers))
	}
	fmt.Fprintf(tw, "approximate size\t%s (%d keys)\n", formatBytes(r.ApproximateSize), r.ApproximateKeys)
	fmt.Fprintf(tw, "written\t%s (%d keys) since the last heartbeat\n", formatBytes(r.WrittenBytes), r.WrittenKeys)
	return tw.Flush()
}
