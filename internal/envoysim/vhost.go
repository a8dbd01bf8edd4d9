// Virtual host selection: which VirtualHost of a RouteConfiguration serves a
// request, from its :authority.
//
// Envoy (VirtualHost.domains; RouteMatcher in source/common/router/
// config_impl.cc) files every domain, folded to lower case, under one of four
// kinds and searches the kinds in a fixed order:
//
//  1. exact domains           "www.foo.com"        the host equals the domain
//  2. suffix wildcards        "*.foo.com", "*-bar.foo.com"
//     the host ends with the part after '*', and is longer than it
//  3. prefix wildcards        "foo.*", "foo-*"
//     the host starts with the part before '*', and is longer than it
//  4. the catch-all           "*"
//
// Within a wildcard kind the longest fixed part wins. "Longer than it" is how
// "the wildcard will not match the empty string" is implemented: "*.foo.com"
// does not match ".foo.com". A domain listed twice is a configuration Envoy
// rejects; here the first virtual host (in configuration order) to list it
// keeps it, which is also what Envoy's map insertion would do.
//
// The host is the :authority folded to ASCII lower case. With
// RouteConfiguration.ignore_port_in_host_matching the port is cut off first
// (at the last ':' that is not inside an IPv6 "[...]"); otherwise the port is
// part of the host, so "foo.com:8080" matches neither "foo.com" nor
// "*.com" — only "foo.com:8080", a prefix wildcard such as "foo.*", or "*".
//
// Worked example, virtual hosts in order
//
//	a: ["api.foo.com"]   b: ["*.foo.com"]   c: ["*-v2.foo.com"]
//	d: ["api.*"]         e: ["*"]
//
//	"API.foo.com"      exact "api.foo.com"                → a
//	"x-v2.foo.com"     suffixes "-v2.foo.com" (11 bytes) beats ".foo.com" (8) → c
//	"web.foo.com"      suffix ".foo.com"                  → b
//	"api.bar.org"      no exact, no suffix; prefix "api." → d
//	".foo.com"         ".foo.com" is not longer than the suffix; → e
//	"api.foo.com:443"  no exact (port kept), no suffix; prefix "api." → d
//
// The index is built from the configuration once per call (it is a value
// made for the search, not for the proto's shape): an exact map, and the two
// wildcard lists sorted longest first with configuration order kept among
// equal lengths, which is how Envoy's length-keyed maps iterate.

package envoysim

import (
	"cmp"
	"slices"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// domainIndex is a RouteConfiguration's virtual hosts arranged for the
// domain search: the surface list of (virtual host, domains) becomes one map
// and two ordered lists, which the search walks without re-parsing a domain.
type domainIndex struct {
	exact    map[string]*routev3.VirtualHost
	suffixes []wildcard // longest fixed part first
	prefixes []wildcard // longest fixed part first
	star     *routev3.VirtualHost
}

// wildcard is a suffix or prefix wildcard domain without its '*'.
type wildcard struct {
	fixed string
	vhost *routev3.VirtualHost
}

// newDomainIndex files every domain of every virtual host in rc.
func newDomainIndex(rc *routev3.RouteConfiguration) *domainIndex {
	idx := &domainIndex{exact: map[string]*routev3.VirtualHost{}}
	for _, vh := range rc.GetVirtualHosts() {
		if vh == nil {
			continue
		}
		for _, d := range vh.GetDomains() {
			d = asciiLower(d)
			switch {
			case d == "*":
				if idx.star == nil {
					idx.star = vh
				}
			case strings.HasPrefix(d, "*"):
				idx.suffixes = append(idx.suffixes, wildcard{fixed: d[1:], vhost: vh})
			case strings.HasSuffix(d, "*"):
				idx.prefixes = append(idx.prefixes, wildcard{fixed: d[:len(d)-1], vhost: vh})
			default:
				if _, dup := idx.exact[d]; !dup {
					idx.exact[d] = vh
				}
			}
		}
	}
	longestFirst := func(a, b wildcard) int { return cmp.Compare(len(b.fixed), len(a.fixed)) }
	slices.SortStableFunc(idx.suffixes, longestFirst)
	slices.SortStableFunc(idx.prefixes, longestFirst)
	return idx
}

// lookup returns the virtual host for host (already lower case, port already
// removed if the configuration says so) and the domain of it that took host,
// lower case; nil when no domain matches.
func (idx *domainIndex) lookup(host string) (*routev3.VirtualHost, string) {
	if vh, ok := idx.exact[host]; ok {
		return vh, host
	}
	for _, w := range idx.suffixes {
		if len(w.fixed) < len(host) && strings.HasSuffix(host, w.fixed) {
			return w.vhost, "*" + w.fixed
		}
	}
	for _, w := range idx.prefixes {
		if len(w.fixed) < len(host) && strings.HasPrefix(host, w.fixed) {
			return w.vhost, w.fixed + "*"
		}
	}
	if idx.star != nil {
		return idx.star, "*"
	}
	return nil, ""
}

// selectVirtualHost returns the virtual host of rc that serves authority,
// and its domain that did, or nil (Envoy answers 404).
func selectVirtualHost(rc *routev3.RouteConfiguration, authority string) (*routev3.VirtualHost, string) {
	return newDomainIndex(rc).lookup(hostForMatching(authority, rc.GetIgnorePortInHostMatching()))
}

// hostForMatching folds authority to lower case and, when ignorePort is set,
// removes its port.
func hostForMatching(authority string, ignorePort bool) string {
	if ignorePort {
		if i := portStart(authority); i >= 0 {
			authority = authority[:i]
		}
	}
	return asciiLower(authority)
}

// portStart is Envoy's HeaderUtility::getPortStart: the index of the ':'
// that starts the port, or -1. The last ':' starts the port unless it lies
// inside an IPv6 literal, i.e. before a ']'. Like Envoy, it does not check
// that a port is made of digits.
func portStart(authority string) int {
	colon := strings.LastIndexByte(authority, ':')
	if colon < 0 {
		return -1
	}
	if bracket := strings.LastIndexByte(authority, ']'); bracket > colon {
		return -1
	}
	return colon
}
