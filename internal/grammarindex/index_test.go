package grammarindex

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRead: the index of testdata/grammars, as the tests read it.
func TestRead(t *testing.T) {
	idx, err := Read("../../testdata/grammars")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Entry{}
	for _, e := range idx {
		got[e.File] = e
	}
	for _, want := range []Entry{
		{File: "rfc3629.abnf", Starts: []string{"UTF8-octets"}, Octets: true},
		{File: "rfc5322.abnf", Starts: []string{"address-list", "date-time", "message"}},
		{File: "rfc6265.abnf", Reject: true, Why: "`<subdomain>` is a prose value"},
		{File: "rfc6570-raw.abnf", Reject: true, Why: "two lines of RFC prose kept by the extraction"},
	} {
		if diff := cmp.Diff(want, got[want.File]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", want.File, diff)
		}
	}
	// Every grammar file of the directory is in the index.
	files, err := filepath.Glob("../../testdata/grammars/*.abnf")
	if err != nil {
		t.Fatal(err)
	}
	if len(idx) != len(files) {
		t.Errorf("%d entries, want the %d .abnf files of the directory", len(idx), len(files))
	}
}
