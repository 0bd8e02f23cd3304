package explain

import (
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/parser"
)

// hostReasons finds the hosts of a parse tree and says why each is of its
// kind, as §3.2.2 decides it:
//
//	host = IP-literal / IPv4address / reg-name
//
// "The syntax rule for host is ambiguous because it does not completely
// distinguish between an IPv4address and a reg-name. In order to
// disambiguate the syntax, we apply the "first-match-wins" algorithm: If
// host matches the rule for IPv4address, then it should be considered an
// IPv4 address literal and not a reg-name."
func (x *Explainer) hostReasons(in string, n *parser.Node) []Host {
	var out []Host
	var walk func(*parser.Node)
	walk = func(n *parser.Node) {
		if x.isHost(n.Rule) {
			out = append(out, x.hostReason(in, n))
			return
		}
		for _, k := range n.Kids {
			walk(k)
		}
	}
	walk(n)
	return out
}

func (x *Explainer) isHost(rule string) bool {
	for _, h := range x.hosts {
		if h == rule {
			return true
		}
	}
	return false
}

func (x *Explainer) hostReason(in string, n *parser.Node) Host {
	text := in[n.Start:n.End]
	h := Host{Start: n.Start, End: n.End, Text: text}
	var kid *parser.Node
	if len(n.Kids) > 0 {
		kid = n.Kids[0]
	}
	switch {
	case kid != nil && kid.Rule == "IPv4address":
		h.Kind = "ipv4"
		h.Reason = fmt.Sprintf("%q matches IPv4address (four dec-octets, each 0 to 255 without a leading zero, separated by \".\"); it also matches %s, but §3.2.2 says: \"If host matches the rule for IPv4address, then it should be considered an IPv4 address literal and not a reg-name\"", text, x.regName())
	case kid != nil && strings.HasPrefix(kid.Rule, "IP-literal"):
		lit := kid
		inner := ""
		if len(lit.Kids) > 0 {
			inner = lit.Kids[0].Rule
		}
		switch {
		case inner == "IPvFuture":
			h.Kind = "ipvfuture"
			h.Reason = fmt.Sprintf("%q is an IP-literal (§3.2.2: enclosed in square brackets) holding an IPvFuture: \"v\", a version in hexadecimal, \".\", then unreserved, sub-delims or \":\"", text)
		case inner == "IPv6addrz":
			h.Kind = "ipv6"
			h.Reason = fmt.Sprintf("%q is an IP-literal holding an IPv6addrz: an IPv6address, \"%%25\" and a ZoneID (RFC 6874 §2)", text)
		default:
			h.Kind = "ipv6"
			h.Reason = fmt.Sprintf("%q is an IP-literal (§3.2.2: enclosed in square brackets) holding an IPv6address (§3.2.2: eight 16-bit pieces, \"::\" standing for one or more groups of zeros, the last 32 bits possibly an IPv4address)", text)
		}
	default:
		h.Kind = "regname"
		switch {
		case text == "":
			h.Reason = fmt.Sprintf("the host is empty: %s matches the empty string (§3.2.2: \"If the URI scheme defines a default for host, then that default applies when the host subcomponent is undefined or when the registered name is empty\")", x.regName())
		default:
			h.Reason = fmt.Sprintf("%q is not an IP-literal (no \"[\") and does not match IPv4address: %s; so it is a registered name, %s (§3.2.2: \"A host identified by a registered name is a sequence of characters usually intended for lookup within a locally defined host or service name registry\")", text, x.notIPv4(text), x.regName())
		}
	}
	return h
}

func (x *Explainer) regName() string {
	if x.g.Rule("ireg-name") != nil {
		return "ireg-name"
	}
	return "reg-name"
}

// notIPv4 says where a host stops matching IPv4address. The answer, a
// run of the ABNF, is kept for the next input with the same host (logs
// repeat their hosts): at most maxNotIPv4 hosts, forgotten all at once
// when full.
func (x *Explainer) notIPv4(host string) string {
	x.notIPv4Mu.Lock()
	s, ok := x.notIPv4s[host]
	x.notIPv4Mu.Unlock()
	if ok {
		return s
	}
	s = x.diagnoseNotIPv4(host)
	x.notIPv4Mu.Lock()
	if len(x.notIPv4s) >= maxNotIPv4 {
		clear(x.notIPv4s)
	}
	x.notIPv4s[strings.Clone(host)] = s
	x.notIPv4Mu.Unlock()
	return s
}

// maxNotIPv4 is the most hosts notIPv4 remembers.
const maxNotIPv4 = 4096

func (x *Explainer) diagnoseNotIPv4(host string) string {
	f, err := x.failure("IPv4address", host)
	if err != nil {
		return "it does not"
	}
	where := fmt.Sprintf("at offset %d of the host, %s", f.Offset, f.Found)
	if f.Rule != "IPv4address" {
		where += " in " + f.Rule
	}
	return fmt.Sprintf("%s, where it expected %s", where, strings.Join(f.Expected, " or "))
}
