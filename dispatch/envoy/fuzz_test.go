package envoy

import (
	"bufio"
	"math/rand"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/dispatch"
)

// FuzzUpstreamClusterRoutes checks the differential property on one rule
// and one request: a rule from ruleCases (by index) or generated (from
// seed), before a catch-all policy, and a request that Go's HTTP server
// and Envoy would both accept. Envoy's route must be a forward route of the
// rule dispatch picks, a guard of a rule not after it, or none when
// dispatch picks none. The seeds are the table cases' requests, and the
// shape and query tables' paths against every rule case.
func FuzzUpstreamClusterRoutes(f *testing.F) {
	for i, tt := range ruleCases {
		for _, r := range tt.requests {
			f.Add(uint(i), int64(0), r.method, r.target, r.user, strings.Join(r.groups, ","))
		}
	}
	for i, p := range resourcePaths {
		f.Add(uint(i%len(ruleCases)), int64(i), "GET", p, "alice", "dev")
	}
	for i, q := range queryCases {
		f.Add(uint(i%len(ruleCases)), int64(i), "GET", "/api/v1/namespaces/ns/configmaps?"+q.query, "carol", "")
	}
	f.Fuzz(func(t *testing.T, index uint, seed int64, method, target, user, groups string) {
		if !acceptable(method, target) || !headerValue(user) || !headerValue(groups) {
			t.Skip()
		}
		rule := genRule(rand.New(rand.NewSource(seed)))
		if index < uint(len(ruleCases)) {
			rule = ruleCases[index].rule
		}
		uc := withCatchAll(rule)
		d, _, err := dispatch.Compile(uc.Spec.DispatchPolicies)
		if err != nil {
			t.Skip()
		}
		res, _, err := Translate(uc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var gs []string
		if groups != "" {
			gs = strings.Split(groups, ",")
		}
		var c coverage
		if msg := compare(d, res, uc, request{method, target, user, gs}, 0, &c); msg != "" {
			t.Fatalf("%s\nrule %#v", msg, rule)
		}
	})
}

// acceptable reports whether both Go's HTTP server and Envoy accept a
// request with this method and target: Go parses the request line, and
// Envoy rejects a target with a fragment.
func acceptable(method, target string) bool {
	if !strings.HasPrefix(target, "/") || strings.Contains(target, "#") {
		return false
	}
	_, err := http.ReadRequest(bufio.NewReader(strings.NewReader(method + " " + target + " HTTP/1.0\r\n\r\n")))
	return err == nil
}

// headerValue reports whether v arrives in a header as it is sent: no
// control bytes, and no white space at either end, which HTTP trims.
var headerValue = regexp.MustCompile(`^(?:[!-~](?:[ -~]*[!-~])?)?$`).MatchString
