package lines

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEach(t *testing.T) {
	long := strings.Repeat("x", 200000)
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"\n", []string{""}},
		{"a\n\nb", []string{"a", "", "b"}},
		{"a\r\nb\r\n", []string{"a\r", "b\r"}},
		{long + "\nshort\n" + long, []string{long, "short", long}},
	} {
		var got []string
		if err := Each(strings.NewReader(tt.in), func(l []byte) error {
			got = append(got, string(l))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Each(%.20q) (-want +got):\n%.500s", tt.in, diff)
		}
	}
}
