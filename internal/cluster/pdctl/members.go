package pdctl

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	pdserver "github.com/strata-db/strata/internal/pd/server"
)

// WriteMembers prints one line per PD member (by name), the leader marked with *.
func WriteMembers(w io.Writer, m pdserver.MembersJSON) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tMEMBER ID\tCLIENT URLS\tPEER URLS\tLEADER")
	members := append([]pdserver.MemberJSON(nil), m.Members...)
	sort.Slice(members, func(i, j int) bool { return members[i].Name < members[j].Name })
	for _, mem := range members {
		leader := ""
		if m.Leader != nil && m.Leader.MemberID == mem.MemberID {
			leader = "*"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", mem.Name, mem.MemberID,
			strings.Join(mem.ClientURLs, ","), strings.Join(mem.PeerURLs, ","), leader)
	}
	if m.Leader == nil {
		fmt.Fprintln(tw, "(no leader)")
	}
	return tw.Flush()
}
