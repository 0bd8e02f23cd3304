package rfc6874_test

import (
	"fmt"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc6874"
)

func Example() {
	in := "http://[fe80::1%25eth0]:8080/"
	_, err := parser.ParseReference(in) // RFC 3986 alone
	fmt.Println(err != nil)
	u, _ := rfc6874.Parser().Parse("URI", in)
	fmt.Println(u.Host(), u.HostKind(), u.Port())
	// A bare "%" is not RFC 6874's delimiter: the zone needs "%25".
	fmt.Println(rfc6874.Parser().Validate("IP-literal", "[fe80::1%eth0]") != nil)
	// Output:
	// true
	// [fe80::1%25eth0] ipv6 8080
	// true
}
