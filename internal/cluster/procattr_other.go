//go:build !linux

package cluster

import (
	"os/exec"
	"syscall"
)

// childAttr keeps the child in the playground's process group.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

func startCmd(cmd *exec.Cmd) error { return cmd.Start() }
