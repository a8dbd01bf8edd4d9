package v1

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/internal/deepcopy/deepcopytest"
)

// TestDeepCopySharesNoMemory fills every field of an HTTPProxy by
// reflection, copies it, and checks that the copy is equal, that no pointer,
// slice or map of the copy is the original's, and that changing every value
// of the original leaves the copy as it was.
func TestDeepCopySharesNoMemory(t *testing.T) {
	deepcopytest.Check(t, walker, "HTTPProxy", (*HTTPProxy).DeepCopy, (*HTTPProxy).DeepCopyObject)
}

// walker fills and compares every field by reflection.
var walker = deepcopytest.Walker{}

// TestFillReachesEveryField guards the test itself: after fill, no exported
// field of the spec and status is left at its zero value.
func TestFillReachesEveryField(t *testing.T) {
	p := &HTTPProxy{}
	walker.FillValue(reflect.ValueOf(p).Elem(), "a")
	zero := append(walker.ZeroFields(reflect.ValueOf(p.Spec), "Spec"), walker.ZeroFields(reflect.ValueOf(p.Status), "Status")...)
	if len(zero) > 0 {
		t.Errorf("fields left zero: %s", strings.Join(zero, ", "))
	}
}

// TestDecodeContourManifest decodes a manifest with Contour's policies and
// writes it back with the same values.
func TestDecodeContourManifest(t *testing.T) {
	in := `{"apiVersion":"projectcontour.io/v1","kind":"HTTPProxy","metadata":{"name":"p","namespace":"n"},
"spec":{"virtualhost":{"fqdn":"a.example.com","rateLimitPolicy":{"local":{"requests":10,"unit":"second"},"global":{"disabled":true}}},
"routes":[{"conditions":[{"prefix":"/"},{"header":{"name":"x","notexact":"y","treatMissingAsEmpty":true}}],
"services":[{"name":"s","port":80,"weight":10,"protocol":"h2c","mirror":true}],
"loadBalancerPolicy":{"strategy":"Cookie"},"retryPolicy":{"count":3,"retryOn":["5xx","reset"]}}]}}`
	var p HTTPProxy
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	if rl := p.Spec.VirtualHost.RateLimitPolicy; rl.Local.Requests != 10 || rl.Local.Unit != "second" || !rl.Global.Disabled {
		t.Errorf("rate limit policy decoded as %+v", rl)
	}
	if p.Spec.Routes[0].LoadBalancerPolicy.Strategy != "Cookie" {
		t.Error("the load balancer policy was not decoded")
	}
	if h := p.Spec.Routes[0].Conditions[1].Header; h.NotExact != "y" || !h.TreatMissingAsEmpty {
		t.Errorf("header condition decoded as %+v", h)
	}
	if r := p.Spec.Routes[0].RetryPolicy; r.NumRetries != 3 || len(r.RetryOn) != 2 {
		t.Errorf("retry policy decoded as %+v", r)
	}
	out, err := json.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	var again HTTPProxy
	if err := json.Unmarshal(out, &again); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Spec, again.Spec) {
		t.Errorf("spec does not survive encoding:\n%s", out)
	}
}
