package dispatch

// Rules exposes the compiled rules, for code that must decide exactly as
// the Dispatcher does, such as a translation of the policies into Envoy
// routes: the meaning of "*", "-", empty lists and users beside
// serviceAccounts is settled once, here, not re-read from the API objects.

// Selection is how a compiled list field selects values. At most one of
// All and None is true; otherwise the field selects Values and the values
// starting with one of Prefixes, or, when Negated, every value except
// those. Only users (Subjects) and userGroups have Prefixes: their entries
// that ended in "*", without it.
type Selection struct {
	All, None, Negated bool
	Values             []string // sorted and distinct
	Prefixes           []string // sorted and distinct
}

// URLSelection is the compiled nonResourceURLs: All, or the paths in Exact
// and the paths starting with one of Prefixes (entries that ended in "*").
type URLSelection struct {
	All             bool
	Exact, Prefixes []string
}

// Empty reports whether the rule lists no nonResourceURLs: it is a rule
// for resource requests.
func (u URLSelection) Empty() bool { return !u.All && len(u.Exact) == 0 && len(u.Prefixes) == 0 }

// Rule is one compiled rule. Subjects merges users and serviceAccounts
// (as "system:serviceaccount:<ns>:<name>") into one selection of user names.
type Rule struct {
	Policy, Index int // positions in the policies given to Compile

	Verbs, APIGroups, Resources, ResourceNames Selection
	Subjects, UserGroups                       Selection
	NonResourceURLs                            URLSelection
}

// Rules returns the compiled rules in the order Match tries them. The
// slices are shared with the Dispatcher and must not be changed.
func (d *Dispatcher) Rules() []Rule {
	out := make([]Rule, len(d.compiled))
	for i := range d.compiled {
		r := &d.compiled[i]
		out[i] = Rule{
			Policy: r.policy, Index: r.index,
			Verbs: r.verbs.selection(), APIGroups: r.apiGroups.selection(),
			Resources: r.resources.selection(), ResourceNames: r.resourceNames.selection(),
			Subjects: r.subject.selection(), UserGroups: r.userGroups.selection(),
			NonResourceURLs: URLSelection{All: r.urls.all, Exact: r.urls.exact, Prefixes: r.urls.prefixes},
		}
	}
	return out
}

func (l list) selection() Selection {
	switch l.mode {
	case matchAll:
		return Selection{All: true}
	case matchNone:
		return Selection{None: true}
	}
	return Selection{Negated: l.mode == matchUnlisted, Values: l.values, Prefixes: l.prefixes}
}
