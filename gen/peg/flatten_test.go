package peg

import "testing"

func TestFlattenGroups(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`(A B) C`, `A B C`},
		{`C / (A B) / D`, `C / A B / D`},
		{`((A B))`, `A B`},
		{`X ((A B) C) Y`, `X A B C Y`},
		{`(&{ return true, nil } A) B`, `&{ return true, nil } A B`},
		{`((A B)? C)+`, `((A B)? C)+`},
		{`(A B) * C`, `(A B) * C`},
		{`(A / B) C`, `(A / B) C`},
		{`&(A B) C`, `&(A B) C`},
		{`!(A B) C`, `!(A B) C`},
		{`v:(A B)`, `v:(A B)`},
		{`(x:A B) C`, `(x:A B) C`},
		{`(A { return nil, nil }) B`, `(A { return nil, nil }) B`},
		{`A / () / B`, `A / () / B`},
		{`("(" [)(] A) B`, `"(" [)(] A B`},
		{`(&{ return f(")"), nil /* ( */ } A)`, `&{ return f(")"), nil /* ( */ } A`},
		{`((A / B) C) D`, `(A / B) C D`},
		{`(A)(B)`, `A B`},
		{`("\")(" A) B`, `"\")(" A B`},
		{`([\](] A) B`, `[\](] A B`},
		{"&\n(A B) C", "&\n(A B) C"},
		{"(A B)\n* C", "(A B)\n* C"},
		{`(A /* ) */ B) C`, `(A /* ) */ B) C`},
	} {
		if got := flattenGroups(tc.in); got != tc.want {
			t.Errorf("flattenGroups(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
