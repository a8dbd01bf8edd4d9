package flowcontrol

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestSetGet(t *testing.T) {
	s, err := NewSet([]Schema{
		{Name: "b", FlowControlSchemaConfiguration: config{TokenBucket: &TokenBucketSchema{QPS: 1, Burst: 1}}},
		{Name: "a", FlowControlSchemaConfiguration: config{MaxRequestsInflight: &MaxRequestsInflightSchema{Max: 1}}},
		{Name: "free", FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Names(), []string{"a", "b", "free"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
	tests := []struct {
		name    string
		kind    Kind
		warning string
	}{
		// Held names.
		{"a", KindMaxRequestsInflight, ""},
		{"b", KindTokenBucket, ""},
		{"free", KindExempt, ""},
		// Unset: no limit, as the seed says, and nothing to warn about.
		{"", KindExempt, ""},
		// Unknown: exempt, with a warning naming the schema.
		{"c", KindExempt, `flowcontrol: no flow control schema named "c"; requests are exempt`},
		{"A", KindExempt, `flowcontrol: no flow control schema named "A"; requests are exempt`},
		{"a ", KindExempt, `flowcontrol: no flow control schema named "a "; requests are exempt`},
	}
	for _, tt := range tests {
		l, warning := s.Get(tt.name)
		if l.Kind() != tt.kind || warning != tt.warning {
			t.Errorf("Get(%q) = %s, %q; want %s, %q", tt.name, l.Kind(), warning, tt.kind, tt.warning)
		}
	}
	// Get returns the same limiter every time, so state is shared.
	a1, _ := s.Get("a")
	a2, _ := s.Get("a")
	if a1 != a2 {
		t.Error("Get(\"a\") returned two different limiters")
	}
	p, _ := a1.Allow(t0)
	if _, ok := a2.Allow(t0); ok {
		t.Error("a second request on a Max 1 schema was admitted")
	}
	p.Release()

	// A zero Set holds nothing, and falls back for every name.
	var zero Set
	if l, w := zero.Get("a"); l.Kind() != KindExempt || w == "" {
		t.Errorf("zero Set: Get(\"a\") = %s, %q; want Exempt and a warning", l.Kind(), w)
	}
	if names := zero.Names(); names != nil {
		t.Errorf("zero Set: Names() = %q", names)
	}
}

func TestSetGetAllocs(t *testing.T) {
	s, err := NewSet([]Schema{tokenBucketSchema(1000, 10), inflightSchema(3)})
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		l, _ := s.Get("bucket")
		l.Allow(t0)
		l, _ = s.Get("")
		l.Allow(t0)
	})
	if allocs != 0 {
		t.Errorf("Get of a held or empty name allocates %v times, want 0", allocs)
	}
}

func TestSetUpdate(t *testing.T) {
	s, err := NewSet([]Schema{
		{Name: "keep", FlowControlSchemaConfiguration: config{MaxRequestsInflight: &MaxRequestsInflightSchema{Max: 3}}},
		{Name: "bucket", FlowControlSchemaConfiguration: config{TokenBucket: &TokenBucketSchema{QPS: 0, Burst: 10}}},
		{Name: "change", FlowControlSchemaConfiguration: config{TokenBucket: &TokenBucketSchema{QPS: 1, Burst: 1}}},
		{Name: "drop", FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	keep, _ := s.Get("keep")
	bucket, _ := s.Get("bucket")
	change, _ := s.Get("change")
	var permits []Permit
	for range 3 {
		p, ok := keep.Allow(t0)
		if !ok {
			t.Fatal("refused below Max")
		}
		permits = append(permits, p)
	}
	for range 7 {
		bucket.Allow(t0)
	}

	err = s.Update([]Schema{
		{Name: "keep", FlowControlSchemaConfiguration: config{MaxRequestsInflight: &MaxRequestsInflightSchema{Max: 1}}},
		{Name: "bucket", FlowControlSchemaConfiguration: config{TokenBucket: &TokenBucketSchema{QPS: 0, Burst: 2}}},
		{Name: "change", FlowControlSchemaConfiguration: config{MaxRequestsInflight: &MaxRequestsInflightSchema{Max: 5}}},
		{Name: "new", FlowControlSchemaConfiguration: config{TokenBucket: &TokenBucketSchema{QPS: 1, Burst: 1}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Names(); !slices.Equal(got, []string{"bucket", "change", "keep", "new"}) {
		t.Errorf("Names() = %q", got)
	}

	// Same name and kind: resized in place, state kept.
	if l, _ := s.Get("keep"); l != keep {
		t.Error("keep was replaced, want resized in place")
	}
	in := keep.(*InflightLimiter)
	if in.Max() != 1 || in.Inflight() != 3 {
		t.Errorf("keep: Max, Inflight = %d, %d; want 1, 3", in.Max(), in.Inflight())
	}
	if l, _ := s.Get("bucket"); l != bucket {
		t.Error("bucket was replaced, want resized in place")
	}
	if tokens := bucket.(*TokenBucketLimiter).Tokens(t0); tokens != 2 {
		t.Errorf("bucket: Tokens = %v, want 3 clamped to the new burst, 2", tokens)
	}
	// Kind changed: a new limiter.
	if l, _ := s.Get("change"); l == change || l.Kind() != KindMaxRequestsInflight {
		t.Errorf("change: Get = %T, want a new MaxRequestsInflight limiter", l)
	}
	// Dropped: falls back.
	if l, w := s.Get("drop"); l.Kind() != KindExempt || !strings.Contains(w, `"drop"`) {
		t.Errorf("drop: Get = %s, %q; want Exempt and a warning", l.Kind(), w)
	}
	// New.
	if l, w := s.Get("new"); l.Kind() != KindTokenBucket || w != "" {
		t.Errorf("new: Get = %s, %q", l.Kind(), w)
	}
	for i := range permits {
		permits[i].Release()
	}
	if in.Inflight() != 0 {
		t.Errorf("keep: Inflight = %d after releasing everything", in.Inflight())
	}

	// Updating to nothing empties the Set.
	if err := s.Update(nil); err != nil {
		t.Fatal(err)
	}
	if names := s.Names(); len(names) != 0 {
		t.Errorf("after Update(nil), Names() = %q", names)
	}
}

func TestSetUpdateInvalid(t *testing.T) {
	s, err := NewSet([]Schema{inflightSchema(2)})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := s.Get("inflight")
	err = s.Update([]Schema{
		{Name: "a", FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}}},
		{FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}}},
		{Name: "a", FlowControlSchemaConfiguration: config{TokenBucket: &TokenBucketSchema{QPS: -1, Burst: 1}}},
		{Name: "b"},
		{Name: "inflight", FlowControlSchemaConfiguration: config{MaxRequestsInflight: &MaxRequestsInflightSchema{Max: 9}}},
	})
	want := strings.Join([]string{
		`flowcontrol: schemas[1]: name: is empty; a schema in a set needs a name`,
		`flowcontrol: schemas[2] "a": name: repeats schemas[0]`,
		`flowcontrol: schemas[2] "a": tokenBucket.qps: -1 is negative`,
		`flowcontrol: schemas[3] "b": sets no method; set one of exempt, maxRequestsInflight or tokenBucket`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Fatalf("Update error:\n%v\nwant:\n%s", err, want)
	}
	var se *SchemaError
	if !errors.As(err, &se) || se.Index != 1 {
		t.Errorf("errors.As(*SchemaError) = %#v, want the first problem, at index 1", se)
	}
	// Nothing changed.
	if got := s.Names(); !slices.Equal(got, []string{"inflight"}) {
		t.Errorf("after a failed Update, Names() = %q", got)
	}
	if l, _ := s.Get("inflight"); l != before || l.(*InflightLimiter).Max() != 2 {
		t.Error("a failed Update changed the inflight limiter")
	}
	if _, err := NewSet([]Schema{{Name: "x"}}); err == nil {
		t.Error("NewSet accepted a schema with no method")
	}
}

// TestSetConcurrent runs Get and decisions against Updates that resize,
// replace, drop and re-add limiters.
func TestSetConcurrent(t *testing.T) {
	configs := [][]Schema{
		{inflightSchema(2), tokenBucketSchema(10, 5)},
		{inflightSchema(5), {Name: "bucket", FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}}}},
		{tokenBucketSchema(1, 1)},
		{
			{Name: "inflight", FlowControlSchemaConfiguration: config{TokenBucket: &TokenBucketSchema{QPS: 3, Burst: 3}}},
			{Name: "bucket", FlowControlSchemaConfiguration: config{MaxRequestsInflight: &MaxRequestsInflightSchema{Max: 1}}},
		},
	}
	s, err := NewSet(configs[0])
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 16 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, name := range []string{"inflight", "bucket", "missing", ""} {
					l, _ := s.Get(name)
					p, _ := l.Allow(t0)
					p.Release()
				}
			}
		})
	}
	for i := range 500 {
		if err := s.Update(configs[i%len(configs)]); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}
