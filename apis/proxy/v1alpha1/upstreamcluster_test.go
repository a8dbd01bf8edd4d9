package v1alpha1

import (
	"encoding/json"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// exampleJSON is the file-top example of upstreamcluster.go, as JSON, with
// the subset under the seed's spelling.
const exampleJSON = `{
  "apiVersion": "proxy.kubegateway.io/v1alpha1",
  "kind": "UpstreamCluster",
  "metadata": {"name": "cluster-a.gateway.example.com"},
  "spec": {
    "servers": [
      {"endpoint": "https://192.168.0.1:6443"},
      {"endpoint": "https://192.168.0.2:6443", "disabled": false}
    ],
    "clientConfig": {"bearerToken": "dG9rZW4=", "qps": 1, "qpsDivisor": 100},
    "secureServing": {"certData": "Y2VydA=="},
    "flowControl": {"flowControlSchemas": [{"name": "list-limit", "tokenBucket": {"qps": 10, "burst": 20}}]},
    "dispatchPolicies": [
      {
        "upsteamSubset": ["https://192.168.0.2:6443"],
        "flowControlSchemaName": "list-limit",
        "rules": [{"verbs": ["list"], "apiGroups": ["*"], "resources": ["*"]}]
      },
      {
        "rules": [
          {"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]},
          {"verbs": ["*"], "nonResourceURLs": ["*"]}
        ]
      }
    ]
  }
}`

func TestUpstreamClusterJSON(t *testing.T) {
	no := false
	want := UpstreamCluster{
		TypeMeta:   metav1.TypeMeta{APIVersion: GroupVersion.String(), Kind: UpstreamClusterKind},
		ObjectMeta: metav1.ObjectMeta{Name: "cluster-a.gateway.example.com"},
		Spec: UpstreamClusterSpec{
			Servers: []UpstreamClusterServer{
				{Endpoint: "https://192.168.0.1:6443"},
				{Endpoint: "https://192.168.0.2:6443", Disabled: &no},
			},
			ClientConfig:  ClientConfig{BearerToken: []byte("token"), QPS: 1, QPSDivisor: 100},
			SecureServing: SecureServing{CertData: []byte("cert")},
			FlowControl: FlowControl{Schemas: []FlowControlSchema{{
				Name:                           "list-limit",
				FlowControlSchemaConfiguration: FlowControlSchemaConfiguration{TokenBucket: &TokenBucketFlowControlSchema{QPS: 10, Burst: 20}},
			}}},
			DispatchPolicies: []DispatchPolicy{
				{
					UpstreamSubset:        []string{"https://192.168.0.2:6443"},
					FlowControlSchemaName: "list-limit",
					Rules:                 []DispatchPolicyRule{{Verbs: []string{"list"}, APIGroups: []string{"*"}, Resources: []string{"*"}}},
				},
				{Rules: []DispatchPolicyRule{
					{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}},
					{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}},
				}},
			},
		},
	}
	var got UpstreamCluster
	if err := json.Unmarshal([]byte(exampleJSON), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Unmarshal = %#v\nwant %#v", got, want)
	}

	// Encoding writes the canonical spelling, and decoding that again
	// gives the same object.
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var again UpstreamCluster
	if err := json.Unmarshal(b, &again); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, want) {
		t.Errorf("round trip = %#v\nwant %#v", again, want)
	}
}

func TestGroupVersion(t *testing.T) {
	if got, want := GroupVersion.String(), "proxy.kubegateway.io/v1alpha1"; got != want {
		t.Errorf("GroupVersion = %s, want %s", got, want)
	}
	if got := GroupVersion.WithKind(UpstreamClusterKind).Kind; got != "UpstreamCluster" {
		t.Errorf("kind = %s", got)
	}
}

// TestUpstreamClusterListJSON checks that a list's items decode through
// DispatchPolicy.UnmarshalJSON too.
func TestUpstreamClusterListJSON(t *testing.T) {
	in := `{"apiVersion":"proxy.kubegateway.io/v1alpha1","kind":"UpstreamClusterList","metadata":{"resourceVersion":"7"},
		"items":[{"metadata":{"name":"a.example.com"},"spec":{"dispatchPolicies":[{"upstreamSubset":["x"],"upsteamSubset":["y"]}]}}]}`
	var l UpstreamClusterList
	if err := json.Unmarshal([]byte(in), &l); err != nil {
		t.Fatal(err)
	}
	if l.Kind != UpstreamClusterListKind || l.ResourceVersion != "7" || len(l.Items) != 1 {
		t.Fatalf("Unmarshal = %#v", l)
	}
	p := l.Items[0].Spec.DispatchPolicies[0]
	if !reflect.DeepEqual(p.UpstreamSubset, []string{"x"}) || !reflect.DeepEqual(p.IgnoredUpsteamSubset, []string{"y"}) {
		t.Errorf("policy = %#v", p)
	}
}
