package v1alpha1

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestFlowControlSchemaType(t *testing.T) {
	exempt := &ExemptFlowControlSchema{}
	inflight := &MaxRequestsInflightFlowControlSchema{Max: 5}
	bucket := &TokenBucketFlowControlSchema{QPS: 1, Burst: 2}
	tests := []struct {
		c    FlowControlSchemaConfiguration
		want FlowControlSchemaType
	}{
		// One member.
		{FlowControlSchemaConfiguration{Exempt: exempt}, Exempt},
		{FlowControlSchemaConfiguration{MaxRequestsInflight: inflight}, MaxRequestsInflight},
		{FlowControlSchemaConfiguration{TokenBucket: bucket}, TokenBucket},

		// None, or more than one.
		{FlowControlSchemaConfiguration{}, Unknown},
		{FlowControlSchemaConfiguration{Exempt: exempt, TokenBucket: bucket}, Unknown},
		{FlowControlSchemaConfiguration{Exempt: exempt, MaxRequestsInflight: inflight}, Unknown},
		{FlowControlSchemaConfiguration{MaxRequestsInflight: inflight, TokenBucket: bucket}, Unknown},
		{FlowControlSchemaConfiguration{Exempt: exempt, MaxRequestsInflight: inflight, TokenBucket: bucket}, Unknown},
	}
	for _, tt := range tests {
		if got := tt.c.Type(); got != tt.want {
			t.Errorf("%+v.Type() = %s, want %s", tt.c, got, tt.want)
		}
	}
}

// TestFlowControlJSON checks that a schema's members sit beside its name.
func TestFlowControlJSON(t *testing.T) {
	in := `{"flowControlSchemas":[
		{"name":"free","exempt":{}},
		{"name":"heavy-lists","maxRequestsInflight":{"max":50}},
		{"name":"polite","tokenBucket":{"qps":10,"burst":20}}]}`
	want := FlowControl{Schemas: []FlowControlSchema{
		{Name: "free", FlowControlSchemaConfiguration: FlowControlSchemaConfiguration{Exempt: &ExemptFlowControlSchema{}}},
		{Name: "heavy-lists", FlowControlSchemaConfiguration: FlowControlSchemaConfiguration{MaxRequestsInflight: &MaxRequestsInflightFlowControlSchema{Max: 50}}},
		{Name: "polite", FlowControlSchemaConfiguration: FlowControlSchemaConfiguration{TokenBucket: &TokenBucketFlowControlSchema{QPS: 10, Burst: 20}}},
	}}
	var got FlowControl
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Unmarshal = %#v\nwant %#v", got, want)
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	const wantJSON = `{"flowControlSchemas":[{"name":"free","exempt":{}},{"name":"heavy-lists","maxRequestsInflight":{"max":50}},{"name":"polite","tokenBucket":{"qps":10,"burst":20}}]}`
	if string(b) != wantJSON {
		t.Errorf("Marshal = %s\nwant %s", b, wantJSON)
	}
}
