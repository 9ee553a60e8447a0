package cluster

import (
	"fmt"
	"net"
	"strings"
)

// PortsTakenError says which planned ports something else listens on.
type PortsTakenError struct {
	Taken []PortUse
}

func (e *PortsTakenError) Error() string {
	parts := make([]string, len(e.Taken))
	for i, p := range e.Taken {
		parts[i] = fmt.Sprintf("%d (%s)", p.Port, p.Use)
	}
	return "port(s) already in use: " + strings.Join(parts, ", ")
}

// CheckPorts probes every port of the instances by listening on it
// briefly; it returns a *PortsTakenError listing those it could not
// bind, or nil.
func CheckPorts(insts []Instance) error {
	var taken []PortUse
	for _, in := range insts {
		for _, p := range in.Ports() {
			l, err := net.Listen("tcp", hostPort(in.Host, p.Port))
			if err != nil {
				taken = append(taken, p)
				continue
			}
			l.Close()
		}
	}
	if len(taken) > 0 {
		return &PortsTakenError{Taken: taken}
	}
	return nil
}
