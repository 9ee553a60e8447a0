package cluster

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// childAttr keeps the child in the playground's process group and kills
// it if the playground dies without stopping it.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// Linux sends Pdeathsig when the *thread* that forked the child exits,
// not the process. Go only ends a thread when a goroutine locked to it
// returns, but to be sure children are forked from one goroutine locked
// to its thread for the life of the process.
var (
	spawnOnce sync.Once
	spawnReqs chan spawnReq
)

type spawnReq struct {
	cmd  *exec.Cmd
	done chan error
}

// startCmd starts cmd from the spawner thread.
func startCmd(cmd *exec.Cmd) error {
	spawnOnce.Do(func() {
		spawnReqs = make(chan spawnReq)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the process
			for r := range spawnReqs {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawnReqs <- spawnReq{cmd, done}
	return <-done
}
