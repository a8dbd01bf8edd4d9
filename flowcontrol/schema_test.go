package flowcontrol

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		s    Schema
		kind Kind
		want string // the error text, "" for valid
	}{
		// Valid, one per kind, including the zero limits.
		{"exempt", exemptSchema, KindExempt, ""},
		{"inflight", inflightSchema(10), KindMaxRequestsInflight, ""},
		{"inflight-0", inflightSchema(0), KindMaxRequestsInflight, ""},
		{"bucket", tokenBucketSchema(10, 20), KindTokenBucket, ""},
		{"bucket-0-0", tokenBucketSchema(0, 0), KindTokenBucket, ""},
		{"bucket-burst-below-qps", tokenBucketSchema(20, 10), KindTokenBucket, ""},
		{"unnamed", Schema{FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}}}, KindExempt, ""},
		// Not exactly one method.
		{"none", Schema{Name: "x"}, "",
			`flowcontrol: schema "x": sets no method; set one of exempt, maxRequestsInflight or tokenBucket`},
		{"two", Schema{Name: "x", FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}, TokenBucket: &TokenBucketSchema{}}}, "",
			`flowcontrol: schema "x": sets exempt and tokenBucket; only one method may be set`},
		{"three", Schema{Name: "x", FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}, MaxRequestsInflight: &MaxRequestsInflightSchema{}, TokenBucket: &TokenBucketSchema{}}}, "",
			`flowcontrol: schema "x": sets exempt and maxRequestsInflight and tokenBucket; only one method may be set`},
		// Negative numbers, every one reported.
		{"negative-max", inflightSchema(-1), KindMaxRequestsInflight,
			`flowcontrol: schema "inflight": maxRequestsInflight.max: -1 is negative`},
		{"negative-qps", tokenBucketSchema(-5, 1), KindTokenBucket,
			`flowcontrol: schema "bucket": tokenBucket.qps: -5 is negative`},
		{"negative-both", tokenBucketSchema(-5, -2147483648), KindTokenBucket,
			"flowcontrol: schema \"bucket\": tokenBucket.qps: -5 is negative\n" +
				`flowcontrol: schema "bucket": tokenBucket.burst: -2147483648 is negative`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := KindOf(tt.s); got != tt.kind {
				t.Errorf("KindOf = %q, want %q", got, tt.kind)
			}
			err := Validate(tt.s)
			l, newErr := New(tt.s)
			if tt.want == "" {
				if err != nil || newErr != nil {
					t.Fatalf("Validate() = %v, New = %v, want nil", err, newErr)
				}
				if l.Kind() != tt.kind {
					t.Fatalf("New(...).Kind() = %s, want %s", l.Kind(), tt.kind)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Validate() = %v\nwant %s", err, tt.want)
			}
			if newErr == nil || newErr.Error() != tt.want || l != nil {
				t.Fatalf("New = %v, %v; want nil, %s", l, newErr, tt.want)
			}
			var se *SchemaError
			if !errors.As(err, &se) || se.Index != -1 || se.Name != tt.s.Name {
				t.Fatalf("Validate() = %#v, want a *SchemaError with Index -1 and Name %q", err, tt.s.Name)
			}
		})
	}
}

func TestNewTypes(t *testing.T) {
	if _, ok := mustNew(t, exemptSchema).(*ExemptLimiter); !ok {
		t.Error("New(exempt) is not an *ExemptLimiter")
	}
	if l, ok := mustNew(t, inflightSchema(7)).(*InflightLimiter); !ok || l.Max() != 7 || l.Inflight() != 0 {
		t.Error("New(maxRequestsInflight 7) is not an empty *InflightLimiter with Max 7")
	}
	if l, ok := mustNew(t, tokenBucketSchema(3, 4)).(*TokenBucketLimiter); !ok || l.QPS() != 3 || l.Burst() != 4 || l.Tokens(t0) != 4 {
		t.Error("New(tokenBucket 3/4) is not a full *TokenBucketLimiter with QPS 3, Burst 4")
	}
}

// TestSchemaJSON decodes schemas in the shape of kube-gateway's
// FlowControlSchema, whose configuration is inlined.
func TestSchemaJSON(t *testing.T) {
	const in = `[
		{"name": "exempt", "exempt": {}},
		{"name": "inflight", "maxRequestsInflight": {"max": 10}},
		{"name": "bucket", "tokenBucket": {"qps": 100, "burst": 200}},
		{"name": "bucket-defaults", "tokenBucket": {}}
	]`
	var got []Schema
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	want := []Schema{
		{Name: "exempt", FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}}},
		{Name: "inflight", FlowControlSchemaConfiguration: config{MaxRequestsInflight: &MaxRequestsInflightSchema{Max: 10}}},
		{Name: "bucket", FlowControlSchemaConfiguration: config{TokenBucket: &TokenBucketSchema{QPS: 100, Burst: 200}}},
		{Name: "bucket-defaults", FlowControlSchemaConfiguration: config{TokenBucket: &TokenBucketSchema{}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %+v, want %+v", got, want)
	}
	out, err := json.Marshal(want[2])
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"name":"bucket","tokenBucket":{"qps":100,"burst":200}}` {
		t.Fatalf("encoded %s", out)
	}
}

func TestSchemaErrorText(t *testing.T) {
	tests := []struct {
		e    SchemaError
		want string
	}{
		{SchemaError{Index: 2, Name: "list", Field: "tokenBucket.qps", Reason: "-1 is negative"},
			`flowcontrol: schemas[2] "list": tokenBucket.qps: -1 is negative`},
		{SchemaError{Index: 0, Field: "name", Reason: "is empty"}, `flowcontrol: schemas[0]: name: is empty`},
		{SchemaError{Index: -1, Name: "x", Reason: "sets no method"}, `flowcontrol: schema "x": sets no method`},
		{SchemaError{Index: -1, Reason: "sets no method"}, `flowcontrol: schema "": sets no method`},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %s, want %s", got, tt.want)
		}
	}
}
