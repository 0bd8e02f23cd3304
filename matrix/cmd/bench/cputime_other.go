//go:build !linux

package main

// threadCPU has no clock here: -clock cpu falls back to wall time.
func threadCPU() (int64, bool) { return 0, false }
