// Matching a request against compiled policies, without allocating.
//
// Match looks each of the request's values up once in the index (index.go),
// which gives, per field, the offset of a bitset of the rules that value
// satisfies. It then walks the bitsets one 64-bit word at a time, ANDing the
// fields' words: the first word with a bit left holds the answer, and its
// lowest bit is the first matching rule of the first matching policy,
// because rules are numbered in the order they are tried. The user's groups
// are looked up only when a word survives the other fields, since most
// words do not. Nothing is written but locals: the group offsets go in a
// fixed array on the stack, and a user with more listed groups than it
// holds is handled by looking the groups up again for each word instead.
//
// Worked example, with rules 0 to 69 (two words) and a request whose
// fields give
//
//	verbs       word 0: bits {3, 9}   word 1: bits {65}
//	resources   word 0: bits {9}      word 1: bits {65, 66}
//	subject     word 0: bits {}       word 1: bits {65}
//
// word 0 ANDs to nothing (the subject field has neither rule 3 nor rule 9),
// so word 1 is tried: {65}. The groups are looked up now, and if rule 65's
// userGroups admit the user, Match returns rule 65's policy and rule index.

package dispatch

import "math/bits"

// Attributes are what Match needs to know about a request, the subset of
// Kubernetes' authorizer.Attributes that dispatch rules look at. A request is
// a resource request (IsResourceRequest; Verb, APIGroup, Resource,
// Subresource and Name apply) or a non-resource request (Verb and Path
// apply); User and Groups apply to both. Values are compared byte for byte.
type Attributes struct {
	// Verb is the Kubernetes verb ("get", "list", "watch", "create", ...)
	// of a resource request, or the lower-case HTTP method ("get",
	// "post", ...) of a non-resource request.
	Verb string
	// APIGroup is the resource's API group; "" is the core group.
	APIGroup string
	// Resource is the resource, such as "pods".
	Resource string
	// Subresource is the subresource, such as "log", or "".
	Subresource string
	// Name is the name of the object, or "" (list, watch, create).
	Name string
	// Namespace is the namespace of the object, or "". No rule field
	// refers to namespaces; it is here so that Attributes can be filled
	// from an authorizer.Attributes in one place.
	Namespace string
	// Path is the URL path of a non-resource request, such as "/healthz",
	// without the query.
	Path string
	// User is the user name, such as "alice" or
	// "system:serviceaccount:kube-system:ci" for a service account.
	User string
	// Groups are the user's groups, such as "system:authenticated".
	Groups []string
	// IsResourceRequest says whether this is a resource request.
	IsResourceRequest bool
}

// Dispatcher is a compiled list of dispatch policies. Match finds the first
// policy with a rule that matches a request; it does not allocate, and a
// Dispatcher is safe for concurrent use because nothing modifies it after
// Compile. The zero Dispatcher has no policies and matches nothing.
//
// The representation differs from the policies it was compiled from: there
// are no lists and no "*" or "-" left, only, for each field, a bitset of
// rules per value some rule names (see index.go).
type Dispatcher struct {
	compiled []rule     // the rules as compiled, for Rules
	words    int        // words per bitset: ⌈rules/64⌉
	arena    []uint64   // every bitset, each words long
	rules    []position // bit i stands for rules[i]
	all      int32      // every rule

	verbs, apiGroups, resourceNames valueIndex
	subject                         prefixIndex
	resources                       resourceIndex
	urls                            prefixIndex
	userGroups                      groupIndex
}

// position is where a rule is in the policies: policy index, rule index.
type position struct{ policy, rule int }

// stackGroups is how many of a user's listed groups Match keeps on the
// stack; users in more groups that some rule lists are matched more slowly.
const stackGroups = 32

// Match returns the index of the first policy with a rule that matches a,
// the index of the first such rule within it, and true; or -1, -1 and
// false if no policy matches.
func (d *Dispatcher) Match(a *Attributes) (policy, rule int, ok bool) {
	if d.words == 0 {
		return -1, -1, false
	}
	verb := int(d.verbs.lookup(a.Verb))
	subject := int(d.subject.lookup(a.User))
	var f1, f2, f3 int
	if a.IsResourceRequest {
		f1 = int(d.apiGroups.lookup(a.APIGroup))
		f2 = int(d.resources.lookup(a.Resource, a.Subresource))
		f3 = int(d.resourceNames.lookup(a.Name))
	} else {
		f1 = int(d.urls.lookup(a.Path))
		f2, f3 = int(d.all), int(d.all)
	}

	var (
		buf       [stackGroups]groupBits
		groups    []groupBits
		overflow  bool
		collected bool
	)
	ar := d.arena
	for w := range d.words {
		x := ar[verb+w] & ar[subject+w] & ar[f1+w] & ar[f2+w] & ar[f3+w]
		if x == 0 {
			continue
		}
		if !collected {
			groups, overflow = d.userGroups.collect(a.Groups, buf[:0])
			collected = true
		}
		if x &= d.userGroups.word(ar, w, groups, overflow, a.Groups); x != 0 {
			p := d.rules[w*64+bits.TrailingZeros64(x)]
			return p.policy, p.rule, true
		}
	}
	return -1, -1, false
}

// collect appends to buf the bitsets of the groups that some rule lists,
// or reports overflow if there are more than buf can hold.
func (x *groupIndex) collect(groups []string, buf []groupBits) (known []groupBits, overflow bool) {
	known = buf
	for _, g := range groups {
		if gb, ok := x.bits(g); ok {
			if len(known) == cap(known) {
				return nil, true
			}
			known = append(known, gb)
		}
	}
	return known, false
}

// word returns word w of the userGroups field for a user in groups, whose
// listed groups' bitsets are known unless overflow.
func (x *groupIndex) word(ar []uint64, w int, known []groupBits, overflow bool, groups []string) uint64 {
	var listed, excluded uint64
	if overflow {
		for _, g := range groups {
			if gb, ok := x.bits(g); ok {
				listed |= ar[int(gb.listed)+w]
				excluded |= ar[int(gb.excluded)+w]
			}
		}
	} else {
		for _, gb := range known {
			listed |= ar[int(gb.listed)+w]
			excluded |= ar[int(gb.excluded)+w]
		}
	}
	return ar[int(x.always)+w] | listed | (ar[int(x.negated)+w] &^ excluded)
}
