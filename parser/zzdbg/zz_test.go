package zzdbg

import (
	"os"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/parser/internal/rfc3986gen"
	"github.com/peguri/rfc3986/syntax"
)

func TestZZDebug(t *testing.T) {
	tb := rfc3986gen.DFA()["URI-reference"]
	b, _ := os.ReadFile("../../testdata/bench-corpus.txt")
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		p := &syntax.TreeParser{In: l, Max: 1 << 40}
		ok := tb.Tree(p)
		t.Logf("ok=%v pos=%d/%d N=%d over=%v mark=%d", ok, p.Pos, len(l), p.N, p.Over, p.Mark())
	}
}
