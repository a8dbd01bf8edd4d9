// Compiling dispatch policies: validation, normalisation, and the
// positions that errors and warnings carry.
//
// Compile walks the policies in order and compiles each rule's fields with
// parseList (list.go), then combines users and serviceAccounts into one
// subject list and checks what only the whole rule can show: that it does
// not mix resources with non-resource URLs, and whether it can match
// anything at all. Every problem is reported with its path, in the order
// the input is read, so the first error is the first problem in the
// document. Only when there is no error are the compiled rules indexed
// (index.go) into a Dispatcher.
//
// Worked example, one policy with one rule:
//
//	verbs:           ["get", "-list"]        -> listed {get}, Warning (mixed)
//	apiGroups:       [""]                    -> listed {""} (the core group)
//	resources:       ["pods/*"]              -> Error policies[0].rules[0].resources[0]
//	users:           []
//	serviceAccounts: [{kube-system, ci}]     -> subject listed {system:serviceaccount:kube-system:ci}
//
// Compile returns (nil, [the warning], the error): fix "pods/*" (say, to
// "pods/log") and it returns a Dispatcher and the same warning.
//
// The subject: users and serviceAccounts are one condition (seed 002's
// table: each one's empty list means "everyone" only when the other is
// empty too). With U the listed users, N the negated users and S the
// service accounts' user names, the combined list is
//
//	users empty, serviceAccounts empty  -> all
//	users ["*"]                         -> all (it "covers" serviceAccounts)
//	users empty                         -> listed S
//	users listed U                      -> listed U ∪ S
//	users negated N                     -> unlisted N \ S  (all if N ⊆ S)
//
// The last line is "not in N, or in S" written as one anti-selection.

package dispatch

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// star is the list entry that matches every value of a field.
const star = v1alpha1.MatchAll

// Error is a reason Compile rejects the policies: what is wrong and where.
type Error struct {
	// Path locates the problem in the list of policies, for example
	// "policies[2].rules[0].resources[1]".
	Path string
	// Reason says what is wrong, for example
	// `"pods/*" is not allowed: {resource}/* is not supported; ...`.
	Reason string
}

// Error returns Path and Reason, separated by ": ".
func (e *Error) Error() string { return e.Path + ": " + e.Reason }

// Warning is something Compile accepts but that probably does not do what
// its author meant: an entry that is ignored, repeated, or a rule that can
// never match.
type Warning struct {
	// Path locates the problem, as in Error.
	Path string
	// Message says what is ignored or surprising.
	Message string
}

// String returns Path and Message, separated by ": ".
func (w Warning) String() string { return w.Path + ": " + w.Message }

// rule is the compiled form of one DispatchPolicyRule: every field is in
// the internal form of list.go, and users and serviceAccounts are merged
// into subject.
type rule struct {
	policy, index int // positions in the input

	verbs, apiGroups, resources, resourceNames list
	subject, userGroups                        list
	urls                                       urlList
}

// urlList is the compiled form of nonResourceURLs. Entries ending in "*"
// are kept, without the "*", in prefixes; the others in exact.
type urlList struct {
	all             bool
	exact, prefixes []string // sorted and distinct
}

// The syntax of each list field (see list.go).
var (
	verbsField         = field{name: "verbs", negatable: true}
	apiGroupsField     = field{name: "apiGroups", negatable: true, emptyValue: true}
	resourcesField     = field{name: "resources", negatable: true, check: checkResource}
	resourceNamesField = field{name: "resourceNames", emptyMatchAll: true, negatable: true}
	usersField         = field{name: "users", negatable: true, prefix: true, check: checkUser}
	userGroupsField    = field{name: "userGroups", emptyMatchAll: true, negatable: true, prefix: true}
	urlsField          = field{name: "nonResourceURLs", negatedBeside: true, check: checkURL}
)

// Compile validates and compiles policies, in order, into a Dispatcher.
// It returns an error, joining an *Error for every problem found, if any
// policy is invalid; it returns warnings, with or without an error, for
// what is accepted but ignored or useless. The policies are not retained.
func Compile(policies []v1alpha1.DispatchPolicy) (*Dispatcher, []Warning, error) {
	rules, warns, err := compileRules(policies)
	if err != nil {
		return nil, warns, err
	}
	return build(rules), warns, nil
}

// compileRules is Compile without the index: the rules of all policies in
// order, compiled.
func compileRules(policies []v1alpha1.DispatchPolicy) ([]rule, []Warning, error) {
	var (
		warns []Warning
		errs  []error
		rules []rule
	)
	for i := range policies {
		p := &policies[i]
		path := fmt.Sprintf("policies[%d]", i)
		checkPolicy(path, p, &warns, &errs)
		for j := range p.Rules {
			r := compileRule(fmt.Sprintf("%s.rules[%d]", path, j), &p.Rules[j], &warns, &errs)
			r.policy, r.index = i, j
			rules = append(rules, r)
		}
	}
	return rules, warns, errors.Join(errs...)
}

// checkPolicy checks the fields of p other than its rules.
func checkPolicy(path string, p *v1alpha1.DispatchPolicy, warns *[]Warning, errs *[]error) {
	if p.Strategy != "" && p.Strategy != v1alpha1.RoundRobin {
		*errs = append(*errs, &Error{path + ".strategy", fmt.Sprintf("%q is not allowed: the only strategy is %q", p.Strategy, v1alpha1.RoundRobin)})
	}
	first := make(map[string]int, len(p.UpstreamSubset))
	for k, e := range p.UpstreamSubset {
		at := fmt.Sprintf("%s.upstreamSubset[%d]", path, k)
		if e == "" {
			*errs = append(*errs, &Error{at, `"" is not allowed: an endpoint must not be empty`})
		} else if j, ok := first[e]; ok {
			*warns = append(*warns, Warning{at, fmt.Sprintf("%q repeats upstreamSubset[%d]", e, j)})
		} else {
			first[e] = k
		}
	}
	if p.IgnoredUpsteamSubset != nil {
		*warns = append(*warns, Warning{path + ".upsteamSubset", fmt.Sprintf(
			"[%s] differs from upstreamSubset [%s], which is used", quoteAll(p.IgnoredUpsteamSubset, ""), quoteAll(p.UpstreamSubset, ""))})
	}
	if len(p.Rules) == 0 {
		*warns = append(*warns, Warning{path, "has no rules, so it matches no request"})
	}
}

// compileRule compiles one rule at path.
func compileRule(path string, r *v1alpha1.DispatchPolicyRule, warns *[]Warning, errs *[]error) rule {
	c := rule{
		verbs:         parseList(path+".verbs", r.Verbs, &verbsField, warns, errs),
		apiGroups:     parseList(path+".apiGroups", r.APIGroups, &apiGroupsField, warns, errs),
		resources:     parseList(path+".resources", r.Resources, &resourcesField, warns, errs),
		resourceNames: parseList(path+".resourceNames", r.ResourceNames, &resourceNamesField, warns, errs),
		subject:       compileSubject(path, r, warns, errs),
		userGroups:    parseList(path+".userGroups", r.UserGroups, &userGroupsField, warns, errs),
		urls:          compileURLs(path+".nonResourceURLs", r.NonResourceURLs, warns, errs),
	}
	for i, v := range r.Verbs {
		if strings.ToLower(v) != v {
			*warns = append(*warns, Warning{fmt.Sprintf("%s.verbs[%d]", path, i), fmt.Sprintf(
				"%q is not lower case; verbs (and the HTTP methods of non-resource requests) are lower case and match exactly", v)})
		}
	}
	switch {
	case len(r.NonResourceURLs) > 0 && (len(r.APIGroups) > 0 || len(r.Resources) > 0 || len(r.ResourceNames) > 0):
		*errs = append(*errs, &Error{path, "nonResourceURLs cannot be combined with apiGroups, resources or resourceNames: " +
			"a rule applies to resource requests or to non-resource URLs, not both; split it into two rules"})
	case len(r.Verbs) == 0:
		*warns = append(*warns, Warning{path, "matches no request: verbs is empty"})
	case len(r.NonResourceURLs) == 0 && (len(r.APIGroups) == 0 || len(r.Resources) == 0):
		*warns = append(*warns, Warning{path, "matches no request: resource requests need apiGroups and resources, " +
			"and non-resource requests need nonResourceURLs"})
	}
	return c
}

// compileSubject merges users and serviceAccounts into one list; see the
// file comment.
func compileSubject(path string, r *v1alpha1.DispatchPolicyRule, warns *[]Warning, errs *[]error) list {
	users := parseList(path+".users", r.Users, &usersField, warns, errs)
	var sas []string
	first := make(map[v1alpha1.ServiceAccountRef]int, len(r.ServiceAccounts))
	for k, sa := range r.ServiceAccounts {
		at := fmt.Sprintf("%s.serviceAccounts[%d]", path, k)
		if j, ok := first[sa]; ok {
			*warns = append(*warns, Warning{at, fmt.Sprintf("%s/%s repeats serviceAccounts[%d]", sa.Namespace, sa.Name, j)})
			continue
		}
		first[sa] = k
		bad := checkServiceAccountPart(at+".namespace", sa.Namespace, validation.IsDNS1123Label, errs)
		bad = checkServiceAccountPart(at+".name", sa.Name, validation.IsDNS1123Subdomain, errs) || bad
		if !bad {
			sas = append(sas, ServiceAccountUsername(sa.Namespace, sa.Name))
		}
	}
	if users.mode == matchAll && len(r.ServiceAccounts) > 0 {
		*warns = append(*warns, Warning{path + ".serviceAccounts", fmt.Sprintf("is ignored: users %q matches every user", star)})
	}
	switch {
	case len(r.Users) == 0 && len(r.ServiceAccounts) == 0, users.mode == matchAll:
		return list{mode: matchAll}
	case users.mode == matchUnlisted:
		var rest []string
		for _, u := range users.values {
			if !slices.Contains(sas, u) {
				rest = append(rest, u)
			}
		}
		// A listed account is matched even when users exclude it; a
		// negated prefix cannot say "but this one".
		for _, sa := range sas {
			for _, p := range users.prefixes {
				if strings.HasPrefix(sa, p) {
					*errs = append(*errs, &Error{path + ".users", fmt.Sprintf(
						"%q excludes %s, which serviceAccounts lists: a negated prefix cannot leave out a listed account; list the users to exclude instead",
						"-"+p+star, sa)})
				}
			}
		}
		if len(rest) == 0 && len(users.prefixes) == 0 {
			return list{mode: matchAll}
		}
		return list{mode: matchUnlisted, values: rest, prefixes: users.prefixes}
	}
	values := sorted(append(users.values, sas...))
	if len(values) == 0 && len(users.prefixes) == 0 {
		return list{mode: matchNone}
	}
	return list{mode: matchListed, values: values, prefixes: users.prefixes}
}

// checkServiceAccountPart checks the namespace or name v of a service
// account with isValid, appending an error at path if it is not valid, and
// reports whether it was not.
func checkServiceAccountPart(path, v string, isValid func(string) []string, errs *[]error) bool {
	var reason string
	switch {
	case v == "":
		reason = "must be set"
	case strings.HasPrefix(v, "-"):
		reason = fmt.Sprintf("%q is not allowed: serviceAccounts cannot be negated", v)
	case v == star:
		reason = fmt.Sprintf(`%q is not allowed: serviceAccounts has no "*"; use userGroups %q for every service account, or %q for those of one namespace`,
			v, "system:serviceaccounts", "system:serviceaccounts:<namespace>")
	default:
		if msgs := isValid(v); len(msgs) > 0 {
			reason = fmt.Sprintf("%q is not allowed: %s", v, strings.Join(msgs, "; "))
		}
	}
	if reason == "" {
		return false
	}
	*errs = append(*errs, &Error{path, reason})
	return true
}

// ServiceAccountUsername returns the user name Kubernetes authenticates a
// service account as, "system:serviceaccount:<namespace>:<name>".
func ServiceAccountUsername(namespace, name string) string {
	return "system:serviceaccount:" + namespace + ":" + name
}

// compileURLs compiles nonResourceURLs.
func compileURLs(path string, entries []string, warns *[]Warning, errs *[]error) urlList {
	l := parseList(path, entries, &urlsField, warns, errs)
	u := urlList{all: l.mode == matchAll}
	for _, v := range l.values {
		if q, ok := strings.CutSuffix(v, star); ok {
			u.prefixes = append(u.prefixes, q)
		} else {
			u.exact = append(u.exact, v)
		}
	}
	u.prefixes = sorted(u.prefixes) // "/a!*" sorts before "/a*", "/a!" after "/a"
	return u
}

// checkURL is the check of nonResourceURLs: a path, optionally ending in
// "*".
func checkURL(v string) string {
	switch i := strings.Index(v, star); {
	case !strings.HasPrefix(v, "/"):
		return `a non-resource URL is a path and starts with "/"`
	case i >= 0 && i != len(v)-1:
		return fmt.Sprintf("%q is only allowed at the end of a path ({path}/*)", star)
	}
	return ""
}
