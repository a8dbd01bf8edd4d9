// The limiters of one UpstreamCluster, by schema name.
//
// A Set answers Get on every request and Update on every configuration
// change, so Get must not wait for Update. The Set keeps its limiters in a
// map that is never modified once published: Update builds a new map (with
// the surviving limiters resized in place, so their state carries over) and
// swaps it in atomically; Get loads the current map and looks the name up.
//
// Worked example, an Update from {a: inflight 10, b: bucket 5/5} to
// {a: inflight 2, b: inflight 3, c: exempt}:
//
//	a  same kind       resized in place: its requests in flight stay counted
//	b  kind changed    replaced by a new limiter; old Permits release the old
//	c  new             created
//	Get("b") during the Update sees the old or the new map, never a mix.

package flowcontrol

import (
	"errors"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// Set holds the limiters of one UpstreamCluster's flowControlSchemas by name.
// Get returns the limiter a DispatchPolicy's flowControlSchemaName refers to,
// or an exempt one (with a warning if the name was set but is unknown).
// Update replaces the schemas, resizing in place the limiters whose schema
// keeps its name and kind. The zero value is an empty Set, ready to use.
// Get and Update are safe for concurrent use; Get never waits and never
// allocates for a name the Set holds.
type Set struct {
	mu       sync.Mutex // serialises Update
	limiters atomic.Pointer[map[string]Limiter]
}

// exempt is what Get returns for names the Set does not hold. All
// ExemptLimiters are alike and stateless, so one is shared.
var exempt Limiter = new(ExemptLimiter)

// NewSet returns a Set holding a limiter for each schema. It fails, as
// Update does, if any schema is invalid.
func NewSet(schemas []Schema) (*Set, error) {
	s := new(Set)
	if err := s.Update(schemas); err != nil {
		return nil, err
	}
	return s, nil
}

// Get returns the limiter of the schema with the given name. The empty name
// means "no flow control" (the seed: "if not set, there is no limit"), and
// gets an exempt limiter and no warning. A name the Set does not hold also
// gets an exempt limiter, so that a policy referring to a missing schema
// keeps serving, and a warning that says so; building the warning is the
// only allocation Get makes.
func (s *Set) Get(name string) (l Limiter, warning string) {
	if name == "" {
		return exempt, ""
	}
	if m := s.limiters.Load(); m != nil {
		if l, ok := (*m)[name]; ok {
			return l, ""
		}
	}
	return exempt, "flowcontrol: no flow control schema named " + strconv.Quote(name) + "; requests are exempt"
}

// Update makes the Set hold exactly the given schemas. A schema whose name
// the Set already holds with the same Kind resizes that limiter in place
// (see Limiter's Resize), so limiters that callers already hold see the new
// limits and keep their state; a schema whose Kind changed gets a new limiter
// (Permits of the old one release the old one, harmlessly); new names get new
// limiters; names not in schemas are dropped, and Get answers for them as
// for any unknown name.
//
// Update validates everything first: if a schema is invalid, has an empty
// name or repeats an earlier name, it returns every such problem as
// *SchemaError values joined with errors.Join, and changes nothing.
func (s *Set) Update(schemas []Schema) error {
	var errs []error
	first := make(map[string]int, len(schemas))
	for i, sc := range schemas {
		if sc.Name == "" {
			errs = append(errs, &SchemaError{Index: i, Field: "name", Reason: "is empty; a schema in a set needs a name"})
		} else if j, dup := first[sc.Name]; dup {
			errs = append(errs, &SchemaError{Index: i, Name: sc.Name, Field: "name", Reason: "repeats schemas[" + strconv.Itoa(j) + "]"})
		} else {
			first[sc.Name] = i
		}
		if err := validate(sc, i); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	var old map[string]Limiter
	if m := s.limiters.Load(); m != nil {
		old = *m
	}
	next := make(map[string]Limiter, len(schemas))
	for _, sc := range schemas {
		if l, ok := old[sc.Name]; ok && l.Kind() == KindOf(sc) {
			resizeValid(l, sc)
			next[sc.Name] = l
			continue
		}
		next[sc.Name] = newLimiter(sc)
	}
	s.limiters.Store(&next)
	return nil
}

// resizeValid resizes l to sc, which is valid and of l's Kind.
func resizeValid(l Limiter, sc Schema) {
	switch l := l.(type) {
	case *InflightLimiter:
		l.resize(sc.MaxRequestsInflight.Max)
	case *TokenBucketLimiter:
		l.resize(sc.TokenBucket.QPS, sc.TokenBucket.Burst)
	}
}

// Names returns the names of the schemas the Set holds, sorted.
func (s *Set) Names() []string {
	m := s.limiters.Load()
	if m == nil {
		return nil
	}
	names := make([]string, 0, len(*m))
	for name := range *m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
