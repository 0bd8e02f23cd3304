package corpus

import (
	"fmt"

	"github.com/peguri/rfc3986/parser"
)

// Diff is a component a record asserts that a parsed URI does not have.
type Diff struct {
	Key                     string // the record's key: "host", "query_defined", "host_type", …
	Want, Got               string
	WantDefined, GotDefined bool
}

func (d Diff) String() string {
	return fmt.Sprintf("%s: theirs %s, ours %s", d.Key, show(d.Want, d.WantDefined), show(d.Got, d.GotDefined))
}

func show(s string, defined bool) string {
	if !defined {
		return "(none)"
	}
	return fmt.Sprintf("%q", s)
}

var hostKinds = map[string]parser.HostKind{
	"IPv4address": parser.HostIPv4,
	"IPv6address": parser.HostIPv6,
	"IPvFuture":   parser.HostIPvFuture,
	"reg-name":    parser.HostRegName,
}

// ComponentDiffs compares the components r asserts (a key that is absent
// asserts nothing; null asserts an undefined component) with u's.
func ComponentDiffs(r Record, u parser.URI) []Diff {
	p := u.Parts()
	var diffs []Diff
	for _, c := range []struct {
		key     string
		got     string
		defined bool
	}{
		{"scheme", p.Scheme, p.HasScheme},
		{"authority", u.Authority(), p.HasAuthority},
		{"userinfo", p.Userinfo, p.HasUserinfo},
		{"host", p.Host, p.HasAuthority},
		{"port", p.Port, p.HasPort},
		{"path", p.Path, true},
		{"query", p.Query, p.HasQuery},
		{"fragment", p.Fragment, p.HasFragment},
	} {
		want, defined, present := r.String(c.key)
		if present && (defined != c.defined || defined && want != c.got) {
			diffs = append(diffs, Diff{c.key, want, c.got, defined, c.defined})
		}
	}
	for _, c := range []struct {
		key  string
		want bool
	}{{"query_defined", p.HasQuery}, {"fragment_defined", p.HasFragment}, {"host_defined", p.HasAuthority}, {"has_scheme", p.HasScheme}} {
		if v, ok := r.Bool(c.key); ok && v != c.want {
			diffs = append(diffs, Diff{c.key, fmt.Sprint(v), fmt.Sprint(c.want), true, true})
		}
	}
	if ht := r.Str("host_type"); ht != "" && hostKinds[ht] != u.HostKind() {
		diffs = append(diffs, Diff{"host_type", ht, u.HostKind().String(), true, true})
	}
	return diffs
}
