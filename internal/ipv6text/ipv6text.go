// Package ipv6text writes an IPv6 address as RFC 5952 recommends, for the
// two places that write one: the normalization step NormalizeIPv6Canonical
// (package resolve) and Builder.HostAddr (package parser), so that a host
// built from an address is already normal.
package ipv6text

import "net/netip"

// Text is a's text as RFC 5952 recommends it. net/netip's Addr.String
// writes §4's text, and §5's mixed notation for an IPv4-mapped address
// (::ffff:0:0/96, RFC 4291 §2.5.5.2); §5 recommends it as well for the
// other well-known prefix it names, RFC 2765's IPv4-translated
// ::ffff:0:0:0/96 (§2.1: "::ffff:0:a.b.c.d"), whose leading part §4
// compresses to "::ffff:0:". A zone, if any, is dropped: its text is the
// caller's (RFC 6874 encodes it in a URI).
func Text(a netip.Addr) string {
	a = a.WithZone("")
	b := a.As16()
	if a.Is6() && [12]byte(b[:12]) == [12]byte{8: 0xff, 9: 0xff} {
		return "::ffff:0:" + netip.AddrFrom4([4]byte(b[12:])).String()
	}
	return a.String()
}
