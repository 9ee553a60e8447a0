package cluster

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// WriteTable prints processes as a table: name, role, address, status
// address, pid, data dir and log file; with alive, a STATE column says
// whether each pid is still running ("up" or "exited").
func WriteTable(w io.Writer, procs []ProcessState, alive bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := "NAME\tROLE\tADDRESS\tSTATUS ADDR\tPID\t"
	if alive {
		header += "STATE\t"
	}
	fmt.Fprintln(tw, header+"DATA DIR\tLOG")
	for _, p := range procs {
		row := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t", p.Name, p.Role, p.Addr, p.StatusAddr, strconv.Itoa(p.PID))
		if alive {
			state := "exited"
			if PIDAlive(p.PID) {
				state = "up"
			}
			row += state + "\t"
		}
		fmt.Fprintln(tw, row+p.DataDir+"\t"+p.LogFile)
	}
	return tw.Flush()
}
