package hostmatch_test

import (
	"fmt"

	"github.com/projectsesame/sesame/hostmatch"
)

func ExampleMatch() {
	for _, host := range []string{"foo.example.com", "a.b.example.com", "example.com"} {
		fmt.Printf("%-16s Suffix: %-5v SingleLabel: %v\n", host,
			hostmatch.Match("*.example.com", host, hostmatch.Suffix),
			hostmatch.Match("*.example.com", host, hostmatch.SingleLabel))
	}
	// A request's Host header may carry a port and any case.
	host := hostmatch.HostOfAuthority("Foo.Example.com:8080")
	fmt.Println(host, hostmatch.Match("foo.example.com", host, hostmatch.Suffix))
	// Output:
	// foo.example.com  Suffix: true  SingleLabel: true
	// a.b.example.com  Suffix: true  SingleLabel: false
	// example.com      Suffix: false SingleLabel: false
	// Foo.Example.com true
}

func ExampleIntersect() {
	pairs := [][2]string{
		{"*.example.com", "foo.example.com"},
		{"*.example.com", "*.foo.example.com"},
		{"foo.example.com", "*.example.com"},
		{"", "x.com"},
		{"a.com", "b.com"},
	}
	for _, p := range pairs {
		h, ok := hostmatch.Intersect(p[0], p[1], hostmatch.Suffix)
		fmt.Printf("%q ∩ %q = %q %v\n", p[0], p[1], h, ok)
	}
	// Output:
	// "*.example.com" ∩ "foo.example.com" = "foo.example.com" true
	// "*.example.com" ∩ "*.foo.example.com" = "*.foo.example.com" true
	// "foo.example.com" ∩ "*.example.com" = "foo.example.com" true
	// "" ∩ "x.com" = "x.com" true
	// "a.com" ∩ "b.com" = "" false
}

func ExampleAttach() {
	// Two HTTP listeners share port 80; a route attaches to the wildcard one.
	listener := "*.example.com"
	siblings := []string{"foo.example.com", "*.example.com"}
	route := []string{"foo.example.com", "bar.example.com", "*.example.com", "example.net"}

	// foo.example.com belongs to the foo.example.com listener (Listener
	// Isolation), and example.net to no listener at all.
	fmt.Printf("%q\n", hostmatch.Attach(listener, siblings, route, hostmatch.Suffix))

	// A route with no hostnames serves under the listener's.
	fmt.Printf("%q\n", hostmatch.Attach(listener, siblings, nil, hostmatch.Suffix))

	// A route none of whose hostnames intersect is not accepted.
	fmt.Printf("%q\n", hostmatch.Attach(listener, siblings, []string{"example.net"}, hostmatch.Suffix))
	// Output:
	// ["bar.example.com" "*.example.com"]
	// ["*.example.com"]
	// []
}

func ExampleValidate() {
	for _, h := range []string{"*.example.com", "Foo.com", "10.0.0.1", "*"} {
		fmt.Println(hostmatch.Validate(h))
	}
	// Output:
	// <nil>
	// invalid hostname "Foo.com": at offset 0: upper-case letter 'F' (hostnames must be lower case)
	// invalid hostname "10.0.0.1": IP address (a hostname must be a DNS name)
	// invalid hostname "*": at offset 0: lone "*" is not a hostname (omit the hostname to match every host)
}

func ExampleAuthorityRegex() {
	// Envoy's domain "*.example.com" also admits a.b.example.com; in
	// SingleLabel mode each route adds a :authority match on this expression.
	fmt.Println(hostmatch.Domain("*.example.com"))
	re, ok := hostmatch.AuthorityRegex("*.example.com")
	fmt.Println(re, ok)
	_, ok = hostmatch.AuthorityRegex("foo.example.com")
	fmt.Println(ok)
	// Output:
	// *.example.com
	// ^[^.:]+\.[eE][xX][aA][mM][pP][lL][eE]\.[cC][oO][mM]\.?(:[0-9]+)?$ true
	// false
}
