package main

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Handler serves the site in dir, uncached (so that a rebuilt site is
// what a reload shows), to requests whose Host header names served, the
// listener's address; given is the address as -addr wrote it. Any other
// Host is answered 421 Misdirected Request: the package comment says
// which values pass, and why.
func Handler(dir string, served net.Addr, given string) http.Handler {
	hosts := newHostPolicy(served, given)
	fs := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hosts.allows(r.Host) {
			http.Error(w, fmt.Sprintf("421 Misdirected Request: this server answers to %s, not to Host %q", hosts, r.Host), http.StatusMisdirectedRequest)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		fs.ServeHTTP(w, r)
	})
}

// hostPolicy is the set of Host header values a server accepts.
type hostPolicy struct {
	port  string     // the port served, in decimal
	ip    netip.Addr // the address listened on; unspecified: every interface
	names []string   // host names accepted (lower case)
}

func newHostPolicy(served net.Addr, given string) hostPolicy {
	var p hostPolicy
	if ap, err := netip.ParseAddrPort(served.String()); err == nil {
		p.ip = ap.Addr().Unmap()
		p.port = fmt.Sprint(ap.Port())
	}
	// Every interface includes loopback.
	local := p.ip.IsLoopback() || p.ip.IsUnspecified()
	if local {
		p.names = append(p.names, "localhost")
	}
	if host, _, err := net.SplitHostPort(given); err == nil && host != "" {
		if _, err := netip.ParseAddr(host); err != nil { // a name, not an IP literal
			host = strings.ToLower(strings.TrimSuffix(host, "."))
			if host != "localhost" || !local {
				p.names = append(p.names, host)
			}
		}
	}
	return p
}

// allows reports whether a request with this Host header is for us. A
// Host without a port means port 80 (RFC 9110 §7.2, http's default).
func (p hostPolicy) allows(hostport string) bool {
	if p.port == "" {
		return false
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, "80"
		if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
			host = host[1 : len(host)-1]
		} else if strings.Contains(host, ":") {
			return false // an IPv6 literal must be bracketed
		}
	}
	if port != p.port || host == "" {
		return false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.Zone() != "" {
			return false
		}
		ip = ip.Unmap()
		if p.ip.IsUnspecified() {
			return true
		}
		return ip == p.ip
	}
	host = strings.ToLower(host)
	for _, n := range p.names {
		if host == n {
			return true
		}
	}
	return false
}

// String lists the accepted values, for the 421 answer.
func (p hostPolicy) String() string {
	var hs []string
	switch {
	case p.port == "":
		return "no Host"
	case p.ip.IsUnspecified():
		hs = append(hs, "any IP address:"+p.port)
	default:
		hs = append(hs, net.JoinHostPort(p.ip.String(), p.port))
	}
	for _, n := range p.names {
		hs = append(hs, net.JoinHostPort(n, p.port))
	}
	return strings.Join(hs, ", ")
}
