package parser

import (
	"reflect"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/internal/urilayout"
)

// TestFieldsMirror holds urilayout.Fields, through which package resolve
// reads and fills URIs with unsafe.Pointer, to URI's fields: the same
// names (but for the case), in the same order, at the same offsets, of the
// same types (a *Parser is an unsafe.Pointer there, a HostKind a uint8).
func TestFieldsMirror(t *testing.T) {
	u, m := reflect.TypeFor[URI](), reflect.TypeFor[urilayout.Fields]()
	if u.Size() != m.Size() || u.Align() != m.Align() {
		t.Errorf("URI is %d bytes aligned to %d, urilayout.Fields %d aligned to %d", u.Size(), u.Align(), m.Size(), m.Align())
	}
	if u.NumField() != m.NumField() {
		t.Fatalf("URI has %d fields, urilayout.Fields %d", u.NumField(), m.NumField())
	}
	for i := range u.NumField() {
		a, b := u.Field(i), m.Field(i)
		// The same type, but for the grammar (an unsafe.Pointer there) and
		// HostKind (a uint8 there).
		same := a.Type == b.Type ||
			a.Type.Kind() == reflect.Pointer && b.Type.Kind() == reflect.UnsafePointer ||
			a.Type == reflect.TypeFor[HostKind]() && b.Type == reflect.TypeFor[uint8]()
		if !strings.EqualFold(a.Name, b.Name) || a.Offset != b.Offset || a.Type.Size() != b.Type.Size() || !same {
			t.Errorf("field %d: URI's is %s %s at %d, urilayout.Fields' %s %s at %d", i, a.Name, a.Type, a.Offset, b.Name, b.Type, b.Offset)
		}
	}
}
