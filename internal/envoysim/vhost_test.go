package envoysim

import (
	"fmt"
	"strings"
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// domainTable has one virtual host per kind of domain, plus one whose domain
// carries a port; each host's name says which domain it holds.
func domainTable(ignorePort bool) *routev3.RouteConfiguration {
	rc := table(
		vhost("exact", []string{"api.foo.com"}),
		vhost("suffix", []string{"*.foo.com"}),
		vhost("suffix-long", []string{"*-v2.foo.com"}),
		vhost("prefix", []string{"api.*"}),
		vhost("prefix-long", []string{"api.foo.*"}),
		vhost("with-port", []string{"web.foo.com:8080"}),
		vhost("any", []string{"*"}),
	)
	rc.IgnorePortInHostMatching = ignorePort
	return rc
}

func TestSelectVirtualHost(t *testing.T) {
	tests := []struct {
		authority  string
		ignorePort bool
		want       string
	}{
		// Exact domains beat every wildcard, ignoring ASCII case.
		{"api.foo.com", false, "exact"},
		{"API.Foo.COM", false, "exact"},

		// Suffix wildcards: the longest suffix wins, and the wildcard part is never empty.
		{"x-v2.foo.com", false, "suffix-long"},
		{"web.foo.com", false, "suffix"},
		{"-v2.foo.com", false, "suffix"}, // "*-v2.foo.com" needs at least one byte before "-v2"
		{".foo.com", false, "any"},       // "*.foo.com" does not match ".foo.com"

		// Prefix wildcards come after suffix wildcards; the longest prefix wins.
		{"api.bar.org", false, "prefix"},
		{"api.foo.org", false, "prefix-long"},
		{"api.", false, "any"}, // "api.*" does not match "api."

		// "*" catches everything else.
		{"other.org", false, "any"},
		{"", false, "any"},

		// Without ignore_port_in_host_matching the port is part of the host.
		{"web.foo.com:8080", false, "with-port"},
		{"web.foo.com:9090", false, "any"},        // ends in ":9090", not ".foo.com"
		{"api.foo.com:443", false, "prefix-long"}, // no exact match, but "api.foo." is a prefix

		// With it, the port is cut off before the search.
		{"api.foo.com:443", true, "exact"},
		{"web.foo.com:8080", true, "suffix"}, // the host is now "web.foo.com"; a domain with a port never matches
		{"[::1]:80", true, "any"},
		{"x-v2.foo.com:1", true, "suffix-long"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/ignorePort=%v", tt.authority, tt.ignorePort), func(t *testing.T) {
			got := Route(domainTable(tt.ignorePort), "http", get(tt.authority, "/")).VirtualHost
			if got != tt.want {
				t.Errorf("virtual host for %q = %q, want %q", tt.authority, got, tt.want)
			}
		})
	}
}

func TestSelectVirtualHostTies(t *testing.T) {
	tests := []struct {
		name      string
		rc        *routev3.RouteConfiguration
		authority string
		want      string
	}{
		// A domain listed twice (Envoy rejects this) belongs to the first virtual host.
		{"duplicate exact", table(vhost("a", []string{"dup.com"}), vhost("b", []string{"dup.com"})), "dup.com", "a"},
		{"duplicate suffix", table(vhost("a", []string{"*.dup.com"}), vhost("b", []string{"*.dup.com"})), "x.dup.com", "a"},
		{"duplicate star", table(vhost("a", []string{"*"}), vhost("b", []string{"*"})), "x", "a"},

		// Domains are folded to lower case when the table is read.
		{"upper-case domain", table(vhost("a", []string{"Shop.Example.COM"})), "shop.example.com", "a"},

		// Without "*", a host nobody claims has no virtual host.
		{"no match", table(vhost("a", []string{"a.com"})), "b.com", ""},
		{"nil table", nil, "a.com", ""},
		{"nil virtual host", table(nil, vhost("a", []string{"*"})), "a.com", "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Route(tt.rc, "http", get(tt.authority, "/")).VirtualHost
			if got != tt.want {
				t.Errorf("virtual host for %q = %q, want %q", tt.authority, got, tt.want)
			}
		})
	}
}

func TestPortStart(t *testing.T) {
	tests := []struct {
		authority string
		want      int
	}{
		{"foo.com", -1},
		{"foo.com:80", 7},
		{"foo.com:", 7},
		{"[::1]", -1},
		{"[::1]:443", 5},
		{"::1", 1}, // unbracketed IPv6 is taken at its last ':', as Envoy does
		{"foo:bar", 3},
	}
	for _, tt := range tests {
		if got := portStart(tt.authority); got != tt.want {
			t.Errorf("portStart(%q) = %d, want %d", tt.authority, got, tt.want)
		}
	}
}

// refVirtualHost is the slow, obviously correct domain search the index is
// checked against: score every (virtual host, domain) pair by kind (exact 0,
// suffix 1, prefix 2, "*" 3) and, within a wildcard kind, by the length of
// the fixed part, and keep the first best pair in configuration order.
func refVirtualHost(rc *routev3.RouteConfiguration, authority string) *routev3.VirtualHost {
	host := authority
	if rc.GetIgnorePortInHostMatching() {
		if i := strings.LastIndex(host, ":"); i >= 0 && !strings.Contains(host[i:], "]") {
			host = host[:i]
		}
	}
	host = asciiLower(host)
	var best *routev3.VirtualHost
	bestKind, bestLen := 4, -1
	for _, vh := range rc.GetVirtualHosts() {
		for _, d := range vh.GetDomains() {
			d = asciiLower(d)
			kind, n := -1, 0
			switch {
			case d == "*":
				kind = 3
			case strings.HasPrefix(d, "*"):
				if fixed := d[1:]; len(host) > len(fixed) && strings.HasSuffix(host, fixed) {
					kind, n = 1, len(fixed)
				}
			case strings.HasSuffix(d, "*"):
				if fixed := d[:len(d)-1]; len(host) > len(fixed) && strings.HasPrefix(host, fixed) {
					kind, n = 2, len(fixed)
				}
			case d == host:
				kind = 0
			}
			if kind >= 0 && (kind < bestKind || kind == bestKind && n > bestLen) {
				best, bestKind, bestLen = vh, kind, n
			}
		}
	}
	return best
}

// TestDomainIndexAgreesWithReference runs every host against every table
// built from pairs of domains, in both orders and both port modes.
func TestDomainIndexAgreesWithReference(t *testing.T) {
	domains := []string{"*", "a.b.c", "*.b.c", "*.c", "*c", "a.*", "a.b.*", "a*", "*-x.b.c", "a.b.c:80", "A.B.C", ""}
	hosts := []string{"a.b.c", "x.b.c", "b.c", ".b.c", "a.b.c:80", "A.B.C:8080", "y-x.b.c", "a.", "a", "", "c", "[::1]:80", "zzz"}
	for _, d1 := range domains {
		for _, d2 := range domains {
			for _, ignorePort := range []bool{false, true} {
				rc := table(vhost("one", []string{d1}), vhost("two", []string{d2, "q.q"}))
				rc.IgnorePortInHostMatching = ignorePort
				for _, h := range hosts {
					got := Route(rc, "http", get(h, "/")).VirtualHostProto
					if want := refVirtualHost(rc, h); got != want {
						t.Errorf("domains %q, %q (ignorePort=%v), host %q: got %q, want %q",
							d1, d2, ignorePort, h, got.GetName(), want.GetName())
					}
				}
			}
		}
	}
}

// TestVirtualHostWorkedExample runs the worked example of vhost.go.
func TestVirtualHostWorkedExample(t *testing.T) {
	rc := table(
		vhost("a", []string{"api.foo.com"}),
		vhost("b", []string{"*.foo.com"}),
		vhost("c", []string{"*-v2.foo.com"}),
		vhost("d", []string{"api.*"}),
		vhost("e", []string{"*"}),
	)
	tests := []struct{ authority, want, domain string }{
		{"API.foo.com", "a", "api.foo.com"},
		{"x-v2.foo.com", "c", "*-v2.foo.com"},
		{"web.foo.com", "b", "*.foo.com"},
		{"api.bar.org", "d", "api.*"},
		{".foo.com", "e", "*"},
		{"api.foo.com:443", "d", "api.*"},
	}
	for _, tt := range tests {
		res := Route(rc, "http", get(tt.authority, "/"))
		if res.VirtualHost != tt.want || res.Domain != tt.domain {
			t.Errorf("virtual host for %q = %q by domain %q, want %q by %q", tt.authority, res.VirtualHost, res.Domain, tt.want, tt.domain)
		}
	}
	if res := Route(table(vhost("a", []string{"api.foo.com"})), "http", get("b.foo.com", "/")); res.Domain != "" {
		t.Errorf("no virtual host, domain %q", res.Domain)
	}
}
