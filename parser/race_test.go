//go:build race

package parser_test

// raceEnabled: the race detector is on. Its sync.Pool drops a share of
// what is put back, at random, so that counts of allocations that rely on
// a pool do not hold.
const raceEnabled = true
