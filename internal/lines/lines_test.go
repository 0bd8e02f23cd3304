package lines

import (
	"strconv"
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

func TestEachQuoted(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"\"\"\n", []string{""}, ""},
		{`"a\r\nb"` + "\n" + `"\x00\xff"` + "\n", []string{"a\r\nb", "\x00\xff"}, ""},
		{`"crlf"` + "\r\n" + `"last"`, []string{"crlf", "last"}, ""},
		{`"é\u00e9"` + "\n", []string{"éé"}, ""},
		{`"ok"` + "\n" + `"open` + "\n", []string{"ok"}, `line 2: not a Go double-quoted string: "\"open"`},
		{"\n", nil, `line 1: not a Go double-quoted string: ""`},
		{"raw\n", nil, `line 1: not a Go double-quoted string: "raw"`},
		{"'a'\n", nil, `line 1: not a Go double-quoted string: "'a'"`},
		{"`a`\n", nil, "line 1: not a Go double-quoted string: \"`a`\""},
		{`"a" "b"` + "\n", nil, `line 1: not a Go double-quoted string: "\"a\" \"b\""`},
	} {
		var got []string
		err := EachQuoted(strings.NewReader(tt.in), func(l []byte) error {
			got = append(got, string(l))
			return nil
		})
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if gotErr != tt.err {
			t.Errorf("EachQuoted(%q) error %q, want %q", tt.in, gotErr, tt.err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("EachQuoted(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
	// Whatever strconv.Quote writes reads back.
	for _, s := range []string{"", "\r\n", "\x00", "\xff\xfe", "a\"b\\", "\u2028", strings.Repeat("x", 100000)} {
		var got []byte
		EachQuoted(strings.NewReader(strconv.Quote(s)+"\n"), func(l []byte) error { got = append([]byte{}, l...); return nil })
		if string(got) != s {
			t.Errorf("round trip of %.20q: got %.20q", s, got)
		}
	}
}

func TestEachLimit(t *testing.T) {
	long := strings.Repeat("x", 200000)
	type line struct {
		Text string
		Size int
	}
	for _, tt := range []struct {
		in   string
		max  int
		want []line
	}{
		{"", 10, nil},
		{"\n", 10, []line{{"", 0}}},
		{"a\n\nb", 10, []line{{"a", 1}, {"", 0}, {"b", 1}}},
		{"0123456789\n01234567890\n", 10, []line{{"0123456789", 10}, {"0123456789", 11}}},
		{"0123456789", 10, []line{{"0123456789", 10}}},
		{"01234567890", 10, []line{{"0123456789", 11}}},
		{long + "\nshort\n" + long, 100, []line{{long[:100], len(long)}, {"short", 5}, {long[:100], len(long)}}},
		{long + "\nshort\n" + long + "\n", 300000, []line{{long, len(long)}, {"short", 5}, {long, len(long)}}},
		{long + "y\n", len(long), []line{{long, len(long) + 1}}},
	} {
		var got []line
		if err := EachLimit(strings.NewReader(tt.in), tt.max, func(l []byte, n int) error {
			got = append(got, line{string(l), n})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("EachLimit(%.20q, %d) (-want +got):\n%.500s", tt.in, tt.max, diff)
		}
	}
}
