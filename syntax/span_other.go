//go:build !amd64 || purego

package syntax

// hasSIMD is false where there is no assembly: span tests a word at a
// time with table loads alone.
var hasSIMD = false

func spanBlocks(k *skipSet, s string) int { return 0 }
