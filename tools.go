//go:build tools

package rfc3986

// The parser generator, pinned in go.mod at v1.3.0 so that "go run
// github.com/mna/pigeon" in generate.go always runs the same version.
import _ "github.com/mna/pigeon"
