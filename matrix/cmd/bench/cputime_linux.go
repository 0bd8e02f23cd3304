package main

import (
	"syscall"
	"unsafe"
)

// threadCPU returns the CPU time the calling thread has used, in ns
// (CLOCK_THREAD_CPUTIME_ID), and whether the system has it. The caller
// is locked to its thread.
func threadCPU() (int64, bool) {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return ts.Nano(), true
}
