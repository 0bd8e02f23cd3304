package abnf_test

import (
	"fmt"
	"testing"

	"github.com/peguri/rfc3986/abnf"
)

// TestFingerprint: grammars Format writes alike share a fingerprint; a
// change of a rule, of the rules' order or of -octets changes it.
func TestFingerprint(t *testing.T) {
	read := func(text string, octets bool) string {
		t.Helper()
		g, err := abnf.Read([]abnf.Source{{Name: "g.abnf", Text: []byte(text)}}, &abnf.Options{Octets: octets})
		if err != nil {
			t.Fatal(err)
		}
		return abnf.Fingerprint(g)
	}
	base := read("a = \"x\" / b\nb = %x30-39\n", false)
	if len(base) != 16 {
		t.Fatalf("fingerprint %q: want 16 hexadecimal digits", base)
	}
	for _, same := range []string{
		"a = \"x\" / b ; a comment\nb = %x30-39\n",
		"a    =   \"x\"\na =/ b\n\nb = %x30-39\n",
		"a = (\"x\" / b)\nb = %x30-39\n",
	} {
		if got := read(same, false); got != base {
			t.Errorf("%q: %s, want %s (the same grammar)", same, got, base)
		}
	}
	for _, other := range []string{
		"a = \"y\" / b\nb = %x30-39\n",
		"b = %x30-39\na = \"x\" / b\n",
		"a = \"x\" / b\nb = %x30-38\n",
	} {
		if got := read(other, false); got == base {
			t.Errorf("%q: %s, the fingerprint of another grammar", other, got)
		}
	}
	if got := read("a = \"x\" / b\nb = %x30-39\n", true); got == base {
		t.Errorf("-octets: %s, the fingerprint without it", got)
	}
}

func ExampleFingerprint() {
	a, _ := abnf.ReadString("a.abnf", "pair = digit \".\" digit\ndigit = %x30-39\n")
	b, _ := abnf.ReadString("b.abnf", "pair  =  digit \".\" digit  ; spaced and commented\ndigit = %x30-39\n")
	fmt.Println(abnf.Fingerprint(a) == abnf.Fingerprint(b))
	// Output:
	// true
}
