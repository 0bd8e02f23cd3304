package resolve

import "github.com/peguri/rfc3986/parser"

// ResolveChecked is Resolve with the target checked by the parser in every
// grammar, RFC 3986's too: the reference of the shortcut build takes
// without it.
func ResolveChecked(base, ref parser.URI, mode Mode) (u parser.URI, err error) {
	err = resolve(&u, &base, &ref, mode, true)
	return u, err
}
