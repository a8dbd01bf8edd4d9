package sesame

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
)

// TestSameStatusIsDeepEqual holds sameStatus to reflect.DeepEqual over
// pairs of drawn route statuses: parents with and without each pointer
// field, nil and empty slices, conditions that differ in one field, times
// equal as instants in other Locations.
func TestSameStatusIsDeepEqual(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ptr := func(s string) *string {
		if rng.IntN(3) == 0 {
			return nil
		}
		return &s
	}
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	zones := []*time.Location{time.UTC, time.FixedZone("UTC", 0), time.FixedZone("X", 3600)}
	draw := func() graph.StatusUpdate {
		var s gatewayv1.RouteStatus
		switch rng.IntN(4) {
		case 0: // nil parents
		case 1:
			s.Parents = []gatewayv1.RouteParentStatus{}
		default:
			for range 1 + rng.IntN(2) {
				p := gatewayv1.RouteParentStatus{ControllerName: gatewayv1.GatewayController(pick("a", "b"))}
				p.ParentRef.Name = gatewayv1.ObjectName(pick("gw", "other"))
				p.ParentRef.Group = (*gatewayv1.Group)(ptr(pick("", "gateway.networking.k8s.io")))
				p.ParentRef.Kind = (*gatewayv1.Kind)(ptr("Gateway"))
				p.ParentRef.Namespace = (*gatewayv1.Namespace)(ptr(pick("a", "b")))
				p.ParentRef.SectionName = (*gatewayv1.SectionName)(ptr("http"))
				if rng.IntN(2) == 0 {
					port := gatewayv1.PortNumber(80 + rng.IntN(2))
					p.ParentRef.Port = &port
				}
				switch rng.IntN(3) {
				case 0:
				case 1:
					p.Conditions = []metav1.Condition{}
				default:
					p.Conditions = []metav1.Condition{{
						Type: pick("Accepted", "ResolvedRefs"), Status: metav1.ConditionStatus(pick("True", "False")),
						ObservedGeneration: int64(rng.IntN(2)), Reason: pick("Accepted", "NoMatchingParent"), Message: pick("", "x"),
						LastTransitionTime: metav1.NewTime(at.Add(time.Duration(rng.IntN(2)) * time.Second).In(zones[rng.IntN(len(zones))])),
					}}
				}
				s.Parents = append(s.Parents, p)
			}
		}
		u := graph.StatusUpdate{Kind: "HTTPRoute", Generation: int64(rng.IntN(2))}
		if rng.IntN(2) == 0 {
			u.Status = &gatewayv1.HTTPRouteStatus{RouteStatus: s}
		} else {
			u.Status = &gatewayv1.GRPCRouteStatus{RouteStatus: s}
		}
		return u
	}
	same := 0
	for range 20000 {
		a, b := draw(), draw()
		if rng.IntN(3) == 0 { // an equal one, not the same memory
			b = a
			switch s := a.Status.(type) {
			case *gatewayv1.HTTPRouteStatus:
				b.Status = s.DeepCopy()
			case *gatewayv1.GRPCRouteStatus:
				b.Status = s.DeepCopy()
			}
		}
		want := a.Generation == b.Generation && reflect.DeepEqual(a.Status, b.Status)
		if got := sameStatus(a, b); got != want {
			t.Fatalf("sameStatus = %v, reflect.DeepEqual = %v:\n%#v\n%#v", got, want, a.Status, b.Status)
		}
		if want {
			same++
		}
	}
	if same < 1000 {
		t.Fatalf("only %d of the pairs are equal: the test checks little of one side", same)
	}
}

// TestSameRouteStatusCoversFields fails when a new Gateway API release
// adds a field to the route status types that sameRouteStatus compares
// field by field: it must compare the new one too.
func TestSameRouteStatusCoversFields(t *testing.T) {
	for typ, fields := range map[reflect.Type]int{
		reflect.TypeFor[gatewayv1.HTTPRouteStatus]():   1,
		reflect.TypeFor[gatewayv1.GRPCRouteStatus]():   1,
		reflect.TypeFor[gatewayv1.RouteStatus]():       1,
		reflect.TypeFor[gatewayv1.RouteParentStatus](): 3,
		reflect.TypeFor[gatewayv1.ParentReference]():   6,
	} {
		if typ.NumField() != fields {
			t.Errorf("%s has %d fields; sameRouteStatus compares %d", typ, typ.NumField(), fields)
		}
	}
}
