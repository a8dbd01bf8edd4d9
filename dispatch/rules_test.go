package dispatch

import (
	"fmt"
	"testing"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

func TestRules(t *testing.T) {
	d, _, err := Compile([]v1alpha1.DispatchPolicy{
		{Rules: []v1alpha1.DispatchPolicyRule{
			{Verbs: []string{"*"}, APIGroups: []string{"-apps", "-batch"}, Resources: []string{"pods", "-nodes"},
				Users: []string{"-eve"}, ServiceAccounts: []v1alpha1.ServiceAccountRef{{Namespace: "ns", Name: "bot"}}},
		}},
		{Rules: []v1alpha1.DispatchPolicyRule{
			{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/metrics*"}, UserGroups: []string{"ops"}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	rules := d.Rules()
	if len(rules) != 2 || rules[0].Policy != 0 || rules[1].Policy != 1 || rules[1].Index != 0 {
		t.Fatalf("rules %+v", rules)
	}
	for _, tt := range []struct{ got, want any }{
		// "*" is all; only negated entries select every value but them; a
		// mix keeps the positive ones; empty resourceNames is everything.
		{rules[0].Verbs, Selection{All: true}},
		{rules[0].APIGroups, Selection{Negated: true, Values: []string{"apps", "batch"}}},
		{rules[0].Resources, Selection{Values: []string{"pods"}}},
		{rules[0].ResourceNames, Selection{All: true}},
		// Negated users beside a service account: every user but eve.
		{rules[0].Subjects, Selection{Negated: true, Values: []string{"eve"}}},
		{rules[0].NonResourceURLs.Empty(), true},
		{rules[1].Verbs, Selection{Values: []string{"get"}}},
		{rules[1].APIGroups, Selection{None: true}},
		{rules[1].UserGroups, Selection{Values: []string{"ops"}}},
		{rules[1].NonResourceURLs, URLSelection{Exact: []string{"/healthz"}, Prefixes: []string{"/metrics"}}},
		{rules[1].Subjects, Selection{All: true}},
	} {
		if fmt.Sprint(tt.got) != fmt.Sprint(tt.want) {
			t.Errorf("got %+v, want %+v", tt.got, tt.want)
		}
	}
}
