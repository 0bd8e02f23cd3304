//go:build !purego

package syntax

import "unsafe"

// spanSSSE3 and cpuidECX1 are in span_amd64.s.
func spanSSSE3(nib *[96]byte, p *byte, n int, esc int, escOut *[256]uint8) int
func cpuidECX1() uint32

// hasSIMD says that the CPU has SSSE3 (CPUID leaf 1, ECX bit 9), which
// spanSSSE3's PSHUFB needs: every amd64 CPU since 2006, but not the
// baseline GOAMD64=v1 promises.
var hasSIMD = cpuidECX1()&(1<<9) != 0

// spanBlocks returns the length of the prefix of s made of k's bytes and
// triplets, testing 16 bytes at a time: it stops at the first byte that is
// neither, or when fewer than 16 bytes are left.
func spanBlocks(k *skipSet, s string) int {
	if len(s) < 16 {
		return 0
	}
	esc := 256 // no byte
	if k.hasEsc {
		esc = int(k.esc)
	}
	return spanSSSE3(&k.nib, unsafe.StringData(s), len(s), esc, &k.escOut)
}
