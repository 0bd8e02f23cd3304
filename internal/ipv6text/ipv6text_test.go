package ipv6text

import (
	"net/netip"
	"testing"
)

func TestText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"2001:DB8:0:0:0:0:0:1", "2001:db8::1"},          // RFC 5952 §4.2.1, §4.3
		{"2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"},    // §4.2.3: the first of two equal runs
		{"2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"}, // §4.2.2: one field is not compressed
		{"::ffff:1.2.3.4", "::ffff:1.2.3.4"},             // §5, RFC 4291's IPv4-mapped
		{"0:0:0:0:ffff:0:102:304", "::ffff:0:1.2.3.4"},   // §5, RFC 2765's IPv4-translated
		{"::ffff:0:0:0", "::ffff:0:0.0.0.0"},             // the prefix itself
		{"1::ffff:0:102:304", "1::ffff:0:102:304"},       // not the prefix
		{"::102:304", "::102:304"},                       // RFC 4291's deprecated IPv4-compatible: hexadecimal
		{"fe80::1%eth0", "fe80::1"},                      // the zone is the caller's
		{"::ffff:0:102:304%eth0", "::ffff:0:1.2.3.4"},
	} {
		if got := Text(netip.MustParseAddr(tt.in)); got != tt.want {
			t.Errorf("Text(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
