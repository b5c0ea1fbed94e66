package s3test

import (
	"os"
	"syscall"
)

// sysProcAttr makes the kernel kill versitygw when the test process dies, even by SIGKILL or a
// test timeout, so no server outlives its test.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }

// terminate asks versitygw to shut down cleanly.
func terminate(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
