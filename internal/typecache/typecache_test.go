package typecache

import (
	"reflect"
	"sync"
	"testing"
)

type node struct {
	Next *node
	Name string
}

// plan is what a test caches: the type's name and the plans of its
// pointer fields' element types.
type plan struct {
	name   string
	fields []*plan
}

func makePlan(c *Cache[*plan], made *int) func(reflect.Type, map[reflect.Type]*plan) *plan {
	var mk func(reflect.Type, map[reflect.Type]*plan) *plan
	mk = func(t reflect.Type, m map[reflect.Type]*plan) *plan {
		if p, ok := c.Made(t, m); ok {
			return p
		}
		*made++
		p := &plan{name: t.Name()}
		m[t] = p
		for i := range t.NumField() {
			if f := t.Field(i).Type; f.Kind() == reflect.Pointer {
				p.fields = append(p.fields, mk(f.Elem(), m))
			}
		}
		return p
	}
	return mk
}

// TestCycleMadeOnceAndShared: a type that reaches itself is made once, its
// plan refers to itself, and goroutines asking at once get the same one.
func TestCycleMadeOnceAndShared(t *testing.T) {
	var c Cache[*plan]
	made := 0
	mk := makePlan(&c, &made)
	var wg sync.WaitGroup
	got := make([]*plan, 8)
	for i := range got {
		wg.Go(func() { got[i] = c.Get(reflect.TypeFor[node](), mk) })
	}
	wg.Wait()
	if made != 1 {
		t.Errorf("made %d times, want once", made)
	}
	for _, p := range got {
		if p != got[0] || len(p.fields) != 1 || p.fields[0] != p {
			t.Fatalf("plans %v: want one, whose Next field is itself", got)
		}
	}
}
