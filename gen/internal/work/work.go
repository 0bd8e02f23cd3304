// Package work counts the work gen's stages do, in steps: NFA and DFA
// states built, states visited by closures and subset construction,
// partition refinements, search steps of the translation's proofs, nodes
// visited by walks of lowered expressions. A step is a few to a few tens of
// nanoseconds.
//
// The count is what gen's tests bound instead of time — a count does not
// change with the machine's load, and a blow-up shows in it whatever the
// machine — and what gen prints with GEN_STATS=1. It is one counter for
// the process: a test that reads it runs alone (not in parallel).
package work

import "sync/atomic"

var steps atomic.Int64

// Add counts n steps.
func Add(n int) { steps.Add(int64(n)) }

// Steps returns the steps counted so far in the process.
func Steps() int64 { return steps.Load() }
