// Dispatch policies, and decoding the two spellings of upstreamSubset.
//
// A DispatchPolicy says where the requests its rules match go: to which
// servers (UpstreamSubset), chosen how (Strategy), under which flow control
// schema. Its rules use a syntax close to RBAC's PolicyRule, extended with
// "-" anti-selection; package dispatch documents and implements the
// matching.
//
// The seed misspells the subset key "upsteamSubset". DispatchPolicy's
// UnmarshalJSON reads both keys as raw JSON, so that it can tell a key that
// is absent (or null) from one that is present, and then decides:
//
//	keys present                          UpstreamSubset   IgnoredUpsteamSubset
//	neither                               nil              nil
//	"upstreamSubset": ["a"]               ["a"]            nil
//	"upsteamSubset": ["a"]                ["a"]            nil
//	both, ["a"] and ["a"]                 ["a"]            nil
//	"upstreamSubset": ["a"],
//	"upsteamSubset": ["b"]                ["a"]            ["b"]
//
// Lists are compared element by element, so ["a","b"] and ["b","a"] differ.
// Every other key is decoded as encoding/json would decode it.

package v1alpha1

import (
	"encoding/json"
	"fmt"
	"slices"
)

// DispatchPolicy routes the requests its rules match to a subset of the
// cluster's servers, under a flow control schema.
type DispatchPolicy struct {
	// Strategy is how a server is picked from the subset. The only
	// strategy is RoundRobin, which is also what an empty Strategy means.
	Strategy Strategy `json:"strategy,omitempty"`

	// UpstreamSubset lists the endpoints (UpstreamClusterServer.Endpoint)
	// the policy's requests may go to; empty means every server. Decoding
	// also accepts the seed's spelling, "upsteamSubset".
	// +optional
	UpstreamSubset []string `json:"upstreamSubset,omitempty"`

	// IgnoredUpsteamSubset is the value of the seed's misspelled key
	// "upsteamSubset" when a decoded document also had "upstreamSubset"
	// with a different value; UpstreamSubset holds the value that is used.
	// It is nil otherwise, and it is never encoded.
	IgnoredUpsteamSubset []string `json:"-"`

	// Rules select the requests of this policy. A request matches the
	// policy if it matches any rule; a policy without rules matches
	// nothing.
	// +optional
	Rules []DispatchPolicyRule `json:"rules,omitempty"`

	// FlowControlSchemaName names the schema in spec.flowControl that
	// limits this policy's requests; empty means no limit.
	// +optional
	FlowControlSchemaName string `json:"flowControlSchemaName,omitempty"`
}

// Strategy is a load-balancing method for picking a server.
type Strategy string

// RoundRobin picks the servers of a subset in turn.
const RoundRobin Strategy = "RoundRobin"

// MatchAll is the list entry that matches every value of a field.
const MatchAll = "*"

// DispatchPolicyRule selects requests. Every field is a list; a request
// matches the rule if it matches every field that applies to it (verbs,
// apiGroups, resources and resourceNames for resource requests; verbs and
// nonResourceURLs for non-resource requests; users, serviceAccounts and
// userGroups for both). In every list "*" matches all values, and an entry
// starting with "-" excludes a value (anti-selection) except in
// nonResourceURLs and serviceAccounts. What an empty list means differs by
// field, as each field says.
type DispatchPolicyRule struct {
	// Verbs are the request verbs the rule applies to ("get", "list", ...;
	// for non-resource requests the lower-case HTTP method).
	// "*" means all verbs, an empty list means none, and "-get" means
	// every verb except get.
	Verbs []string `json:"verbs,omitempty"`

	// APIGroups are the API groups ("" is the core group).
	// "*" means all groups, an empty list means none, and "-apps" means
	// every group except apps.
	APIGroups []string `json:"apiGroups,omitempty"`

	// Resources are the resources, "{resource}" or
	// "{resource}/{subresource}"; "*/{subresource}" is that subresource of
	// every resource, and "{resource}/*" is not allowed.
	// "*" means all resources and subresources, an empty list means none,
	// and "-deployments" means every resource except deployments.
	Resources []string `json:"resources,omitempty"`

	// ResourceNames are the names of the objects.
	// "*" and an empty list mean all names, and "-nginx" means every name
	// except nginx.
	// +optional
	ResourceNames []string `json:"resourceNames,omitempty"`

	// Users are user names. "*" means all users and "-admin" every user
	// except admin. An empty list means all users if ServiceAccounts is
	// empty too, and no users (only the listed service accounts)
	// otherwise.
	// +optional
	Users []string `json:"users,omitempty"`

	// ServiceAccounts are service accounts, matched as the user name
	// "system:serviceaccount:<namespace>:<name>"; both parts must be set.
	// They cannot be negated and "*" is not special. An empty list means
	// all users if Users is empty too, and no service accounts otherwise.
	// +optional
	ServiceAccounts []ServiceAccountRef `json:"serviceAccounts,omitempty"`

	// UserGroups are groups of the requesting user; the rule applies if
	// the user is in any of them. "*" and an empty list mean every user,
	// and "-system:nodes" means every user not in system:nodes.
	// +optional
	UserGroups []string `json:"userGroups,omitempty"`

	// NonResourceURLs are URL paths of non-resource requests ("/healthz").
	// An entry ending in "*" matches every path that starts with what
	// precedes the "*" ("/healthz/*"). "*" means all paths and an empty
	// list means none. They cannot be negated.
	NonResourceURLs []string `json:"nonResourceURLs,omitempty"`
}

// ServiceAccountRef names a service account.
type ServiceAccountRef struct {
	// Name is the service account's name.
	Name string `json:"name,omitempty"`

	// Namespace is the service account's namespace.
	Namespace string `json:"namespace,omitempty"`
}

// UnmarshalJSON decodes a DispatchPolicy, accepting the subset under both
// "upstreamSubset" and the seed's "upsteamSubset". If both are present and
// differ, UpstreamSubset gets "upstreamSubset" and IgnoredUpsteamSubset the
// other; it never fails because of the two spellings.
func (p *DispatchPolicy) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	// plain has DispatchPolicy's fields but not its methods, so decoding
	// into it does not recurse. The outer fields shadow the embedded
	// "upstreamSubset" and add "upsteamSubset", both kept raw so that a
	// missing key can be told from an empty list.
	type plain DispatchPolicy
	var aux struct {
		plain
		Correct    json.RawMessage `json:"upstreamSubset"`
		Misspelled json.RawMessage `json:"upsteamSubset"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	correct, hasCorrect, err := decodeSubset("upstreamSubset", aux.Correct)
	if err != nil {
		return err
	}
	misspelled, hasMisspelled, err := decodeSubset("upsteamSubset", aux.Misspelled)
	if err != nil {
		return err
	}
	*p = DispatchPolicy(aux.plain)
	p.UpstreamSubset, p.IgnoredUpsteamSubset = nil, nil
	switch {
	case hasCorrect:
		p.UpstreamSubset = correct
		if hasMisspelled && !slices.Equal(correct, misspelled) {
			p.IgnoredUpsteamSubset = misspelled
		}
	case hasMisspelled:
		p.UpstreamSubset = misspelled
	}
	return nil
}

// decodeSubset decodes the raw value of one spelling, key; present is false
// when the key was absent or null.
func decodeSubset(key string, raw json.RawMessage) (subset []string, present bool, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false, nil
	}
	if err := json.Unmarshal(raw, &subset); err != nil {
		return nil, false, fmt.Errorf("v1alpha1: DispatchPolicy.%s: %w", key, err)
	}
	return subset, true, nil
}
