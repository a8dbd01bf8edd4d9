package rules

import (
	"strings"
	"testing"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestWeightsProblem(t *testing.T) {
	refs := func(weights ...int32) []gatewayv1.BackendRef {
		out := make([]gatewayv1.BackendRef, len(weights))
		for i, w := range weights {
			if w != -2 { // -2: no weight given, which is 1
				out[i].Weight = new(w)
			}
		}
		return out
	}
	many := make([]int32, 4295)
	for i := range many {
		many[i] = maxWeight
	}
	tests := []struct {
		name    string
		refs    []gatewayv1.BackendRef
		problem string // substring; "" when the weights can be served
	}{
		{"none", nil, ""},
		{"defaults", refs(-2, -2), ""},
		{"zero and the maximum", refs(0, maxWeight), ""},
		{"negative", refs(1, -1), "backendRefs[1].weight -1 is not in 0-1000000"},
		{"above the API's maximum", refs(maxWeight + 1), "backendRefs[0].weight 1000001 is not in 0-1000000"},
		{"int32 maximum", refs(2147483647, 2147483647, 2147483647), "backendRefs[0].weight 2147483647"},
		{"sum beyond 32 bits", refs(many...), "the weights add up to 4295000000; Envoy takes at most 4294967295"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problem := weightsProblem(tt.refs, "spec.rules[0]")
			if tt.problem == "" && problem != "" || !strings.Contains(problem, tt.problem) {
				t.Errorf("weightsProblem = %q, want %q", problem, tt.problem)
			}
		})
	}
}
