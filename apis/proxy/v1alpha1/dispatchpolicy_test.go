package v1alpha1

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var subsetTests = []struct {
	name        string
	in          string
	want        []string // UpstreamSubset
	wantIgnored []string // IgnoredUpsteamSubset
}{
	// Neither key, or null.
	{"neither", `{}`, nil, nil},
	{"null correct", `{"upstreamSubset":null}`, nil, nil},
	{"null misspelled", `{"upsteamSubset":null}`, nil, nil},
	{"both null", `{"upstreamSubset":null,"upsteamSubset":null}`, nil, nil},

	// One spelling.
	{"correct", `{"upstreamSubset":["a"]}`, []string{"a"}, nil},
	{"misspelled", `{"upsteamSubset":["a"]}`, []string{"a"}, nil},
	{"correct empty", `{"upstreamSubset":[]}`, []string{}, nil},
	{"misspelled empty", `{"upsteamSubset":[]}`, []string{}, nil},

	// Both spellings.
	{"both equal", `{"upstreamSubset":["a","b"],"upsteamSubset":["a","b"]}`, []string{"a", "b"}, nil},
	{"both empty", `{"upstreamSubset":[],"upsteamSubset":[]}`, []string{}, nil},
	{"both differ", `{"upstreamSubset":["a"],"upsteamSubset":["b"]}`, []string{"a"}, []string{"b"}},
	{"both differ, misspelled first", `{"upsteamSubset":["b"],"upstreamSubset":["a"]}`, []string{"a"}, []string{"b"}},
	{"both differ in order", `{"upstreamSubset":["a","b"],"upsteamSubset":["b","a"]}`, []string{"a", "b"}, []string{"b", "a"}},
	{"correct empty, misspelled set", `{"upstreamSubset":[],"upsteamSubset":["b"]}`, []string{}, []string{"b"}},
	{"correct null, misspelled set", `{"upstreamSubset":null,"upsteamSubset":["b"]}`, []string{"b"}, nil},
}

func TestDispatchPolicyUnmarshalSubset(t *testing.T) {
	for _, tt := range subsetTests {
		var p DispatchPolicy
		if err := json.Unmarshal([]byte(tt.in), &p); err != nil {
			t.Errorf("%s: Unmarshal(%s): %v", tt.name, tt.in, err)
			continue
		}
		if !reflect.DeepEqual(p.UpstreamSubset, tt.want) || !reflect.DeepEqual(p.IgnoredUpsteamSubset, tt.wantIgnored) {
			t.Errorf("%s: Unmarshal(%s) = subset %#v, ignored %#v; want %#v, %#v",
				tt.name, tt.in, p.UpstreamSubset, p.IgnoredUpsteamSubset, tt.want, tt.wantIgnored)
		}
	}
}

func TestDispatchPolicyUnmarshalOtherFields(t *testing.T) {
	in := `{
		"strategy": "RoundRobin",
		"upsteamSubset": ["https://10.0.0.1:6443"],
		"flowControlSchemaName": "polite",
		"rules": [{
			"verbs": ["get", "-list"],
			"apiGroups": [""],
			"resources": ["pods/log"],
			"resourceNames": ["nginx"],
			"users": ["alice"],
			"serviceAccounts": [{"name": "sa", "namespace": "ns"}],
			"userGroups": ["-system:nodes"],
			"nonResourceURLs": ["/healthz/*"]
		}]
	}`
	want := DispatchPolicy{
		Strategy:              RoundRobin,
		UpstreamSubset:        []string{"https://10.0.0.1:6443"},
		FlowControlSchemaName: "polite",
		Rules: []DispatchPolicyRule{{
			Verbs:           []string{"get", "-list"},
			APIGroups:       []string{""},
			Resources:       []string{"pods/log"},
			ResourceNames:   []string{"nginx"},
			Users:           []string{"alice"},
			ServiceAccounts: []ServiceAccountRef{{Name: "sa", Namespace: "ns"}},
			UserGroups:      []string{"-system:nodes"},
			NonResourceURLs: []string{"/healthz/*"},
		}},
	}
	var got DispatchPolicy
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Unmarshal = %#v\nwant %#v", got, want)
	}
}

func TestDispatchPolicyUnmarshalErrors(t *testing.T) {
	tests := []struct{ in, wantErr string }{
		{`{"upstreamSubset":"a"}`, "DispatchPolicy.upstreamSubset"},
		{`{"upsteamSubset":{}}`, "DispatchPolicy.upsteamSubset"},
		{`{"rules":"x"}`, "cannot unmarshal"},
		{`[]`, "cannot unmarshal"},
	}
	for _, tt := range tests {
		var p DispatchPolicy
		err := json.Unmarshal([]byte(tt.in), &p)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("Unmarshal(%s) = %v, want an error containing %q", tt.in, err, tt.wantErr)
		}
	}
}

func TestDispatchPolicyUnmarshalNull(t *testing.T) {
	p := DispatchPolicy{Strategy: RoundRobin}
	if err := p.UnmarshalJSON([]byte("null")); err != nil || p.Strategy != RoundRobin {
		t.Errorf("UnmarshalJSON(null) = %v, left %#v; want no error and no change", err, p)
	}
}

// TestDispatchPolicyMarshal checks that encoding writes only the canonical
// spelling and never the ignored value.
func TestDispatchPolicyMarshal(t *testing.T) {
	p := DispatchPolicy{UpstreamSubset: []string{"a"}, IgnoredUpsteamSubset: []string{"b"}}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"upstreamSubset":["a"]}`; got != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
}

func FuzzDispatchPolicyUnmarshal(f *testing.F) {
	for _, tt := range subsetTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var p DispatchPolicy
		if json.Unmarshal([]byte(in), &p) != nil {
			return
		}
		// The subset used is the canonical key's if present; an ignored
		// value always differs from it.
		if p.IgnoredUpsteamSubset != nil && reflect.DeepEqual(p.IgnoredUpsteamSubset, p.UpstreamSubset) {
			t.Fatalf("Unmarshal(%q): ignored %#v equals the subset used", in, p.IgnoredUpsteamSubset)
		}
		// Round trip: what is encoded decodes to an object that encodes
		// the same way, with nothing ignored.
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q DispatchPolicy
		if err := json.Unmarshal(b, &q); err != nil {
			t.Fatalf("Unmarshal(Marshal(%q) = %s): %v", in, b, err)
		}
		if b2, _ := json.Marshal(q); string(b2) != string(b) {
			t.Fatalf("round trip of %q: %s then %s", in, b, b2)
		}
		if q.IgnoredUpsteamSubset != nil {
			t.Fatalf("round trip of %q set IgnoredUpsteamSubset %#v", in, q.IgnoredUpsteamSubset)
		}
	})
}
