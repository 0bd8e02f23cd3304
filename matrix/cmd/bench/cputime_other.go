//go:build !linux

package main

// threadCPU has no clock here: the tables show elapsed time alone.
func threadCPU() (int64, bool) { return 0, false }
