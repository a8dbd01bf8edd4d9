package conformance

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/gateway-api/conformance/utils/suite"
	"sigs.k8s.io/gateway-api/pkg/features"
)

// NotJudged are the conformance tests the offline run cannot judge, with
// the reason. They are skipped and reported as not judged, never as passed.
var NotJudged = map[string]string{
	// The suite's utils/tls and utils/tcp dial the Gateway's address with
	// their own net.Dialer; there is no Envoy listening there.
	"TLSRouteHostnameIntersection":          "opens TLS connections itself (utils/tls dialer)",
	"TLSRouteInvalidBackendRefNonexistent":  "opens TLS connections itself (utils/tls dialer)",
	"TLSRouteInvalidBackendRefUnknownKind":  "opens TLS connections itself (utils/tls dialer)",
	"TLSRouteMixedTerminationSameNamespace": "opens TCP connections itself (utils/tcp dialer)",
	"TLSRouteSimpleSameNamespace":           "opens TCP connections itself (utils/tcp dialer)",
	"TLSRouteTerminateSimpleSameNamespace":  "opens TCP connections itself (utils/tcp dialer)",
	// Mirrored requests are checked in the mirror pods' logs, read through
	// a real clientset.
	"HTTPRouteRequestMirror":           "reads the mirror backend's pod logs",
	"HTTPRouteRequestMultipleMirrors":  "reads the mirror backends' pod logs",
	"HTTPRouteRequestPercentageMirror": "reads the mirror backend's pod logs",
}

// outcome is what happened to one conformance test.
type outcome string

const (
	passed     outcome = "passed"
	failed     outcome = "failed"
	notJudged  outcome = "not judged"
	notClaimed outcome = "not claimed"
)

// results gathers outcomes as tests end.
type results struct {
	mu   sync.Mutex
	byID map[string]result
}

type result struct {
	test    suite.ConformanceTest
	outcome outcome
	reason  string
}

func (r *results) record(test suite.ConformanceTest, o outcome, reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID == nil {
		r.byID = map[string]result{}
	}
	r.byID[test.ShortName] = result{test: test, outcome: o, reason: reason}
}

// summary writes, for each feature, how many of the tests that exercise
// it passed, failed, were not judged and were not run because a feature
// they need is not claimed, and lists the tests that did not pass.
func (r *results) summary(w io.Writer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	counts := map[features.FeatureName]map[outcome]int{}
	for _, res := range r.byID {
		for _, f := range res.test.Features {
			if counts[f] == nil {
				counts[f] = map[outcome]int{}
			}
			counts[f][res.outcome]++
		}
	}
	fmt.Fprintf(w, "%-55s %6s %6s %10s %11s\n", "feature", passed, failed, notJudged, notClaimed)
	for _, f := range sortedKeys(counts) {
		c := counts[f]
		fmt.Fprintf(w, "%-55s %6d %6d %10d %11d\n", f, c[passed], c[failed], c[notJudged], c[notClaimed])
	}
	for _, o := range []outcome{failed, notJudged} {
		var names []string
		for _, name := range sortedKeys(r.byID) {
			if res := r.byID[name]; res.outcome == o {
				names = append(names, strings.TrimSpace(name+" "+res.reason))
			}
		}
		slices.Sort(names)
		if len(names) > 0 {
			fmt.Fprintf(w, "%s:\n\t%s\n", o, strings.Join(names, "\n\t"))
		}
	}
}
