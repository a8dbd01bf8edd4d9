package xdsgen

import (
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/projectsesame/sesame/dispatch"
)

// TestResourcePathShape checks the "is a resource request" expression
// against dispatch's reading of the path.
func TestResourcePathShape(t *testing.T) {
	re := regexp.MustCompile(`^(?:` + resources + tail + `)$`)
	for _, path := range []string{
		// resource requests
		"/api/v1/pods", "/api/v1/watch", "//api/v1/pods/", "/api//pods", "/api/v1//", "/apis/apps/v1/deployments",
		"/apis//v1/x", "/api/v1/namespaces/default/pods/web/log?follow=1",
		// non-resource requests
		"/api", "/api/v1", "/api/v1/", "/apis/apps/v1", "/apis/apps/v1/", "/apis/apps", "/healthz", "/version?x=/api/v1/pods",
		"/apix/v1/pods", "/", "/healthz/api/v1/pods",
	} {
		a := dispatch.AttributesFromRequest(httptest.NewRequest("GET", path, nil), "", nil)
		if got := re.MatchString(path); got != a.IsResourceRequest {
			t.Errorf("%s: regex says resource request %v, dispatch %v", path, got, a.IsResourceRequest)
		}
	}
}

// TestNonResourceVerbMethods checks that the :method expression of a verb
// accepts exactly the methods whose lower case is the verb.
func TestNonResourceVerbMethods(t *testing.T) {
	tests := []struct {
		verb string
		yes  []string
		no   []string
	}{
		{"get", []string{"GET", "get", "Get"}, []string{"HEAD", "GETS", ""}},
		{"post", []string{"POST", "pOsT"}, []string{"PUT"}},
		{"delete", []string{"DELETE"}, []string{"DELET"}},
		{"kill", []string{"KILL", "\u212aILL"}, []string{"KIL"}}, // the Kelvin sign lower-cases to k
		{"options", []string{"OPTIONS"}, []string{"OPTION"}},
	}
	for _, tt := range tests {
		re := regexp.MustCompile(`^(?:` + lowerPreimage(tt.verb) + `)$`)
		for _, m := range tt.yes {
			if !re.MatchString(m) {
				t.Errorf("verb %s: method %q should match (%s)", tt.verb, m, re)
			}
		}
		for _, m := range tt.no {
			if re.MatchString(m) {
				t.Errorf("verb %s: method %q should not match (%s)", tt.verb, m, re)
			}
		}
	}
}
