//go:build !linux

package cluster

import "syscall"

// childAttr keeps the child in the playground's process group.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
