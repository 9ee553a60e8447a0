package cluster

import "syscall"

// childAttr keeps the child in the playground's process group and kills
// it if the playground dies without stopping it.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
