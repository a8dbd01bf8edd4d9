package sesame_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/internal/render"
	"github.com/projectsesame/sesame/xdsgen"
)

// TestTranslatorMatchesTranslate applies random sequences of changes
// (objects added, modified, renamed and deleted, of every kind: Gateways,
// routes, Services, Secrets, ReferenceGrants, EndpointSlices, HTTPProxies,
// Ingresses...) to the inputs of the golden files and a generated one,
// and checks after every step that the Translator's result is the one
// Translate gives for the same objects, in another order, and that its
// delta names exactly the resources and statuses that differ from the
// step before.
func TestTranslatorMatchesTranslate(t *testing.T) {
	files := goldenFiles(t)
	steps := 16
	if testing.Short() {
		files, steps = everyNth(files, 8), 10
	}
	var changes atomic.Int64
	// The subtests run on every processor; the group returns once all are
	// done, so that the count below is theirs.
	t.Run("group", func(t *testing.T) {
		for i, file := range files {
			t.Run(filepath.Base(file), func(t *testing.T) {
				t.Parallel()
				c := loadCase(t, file)
				changes.Add(int64(runChanges(t, c.objects, c.options, rand.New(rand.NewPCG(uint64(i), 22)), steps)))
			})
		}
		t.Run("generated", func(t *testing.T) {
			t.Parallel()
			objects := gen.Objects(gen.Config{Seed: 5, Routes: 150, Hostnames: 4, Hostless: 20, Wildcard: 20})
			changes.Add(int64(runChanges(t, objects, sesame.Options{Now: goldenNow}, rand.New(rand.NewPCG(99, 22)), 3*steps)))
		})
		t.Run("generated-gateways", func(t *testing.T) { // each served, routes of each sharing hostnames and Services
			t.Parallel()
			objects := gen.Objects(gen.Config{Seed: 6, Routes: 150, Hostnames: 4, Hostless: 20, Wildcard: 20, Gateways: 3})
			changes.Add(int64(runChanges(t, objects, sesame.Options{Now: goldenNow, AllGateways: true}, rand.New(rand.NewPCG(98, 22)), 3*steps)))
		})
	})
	if changes := int(changes.Load()); changes < len(files)*steps/3 {
		t.Errorf("only %d steps changed something Envoy or the API server sees", changes)
	}
}

func everyNth[T any](s []T, n int) []T {
	var out []T
	for i := 0; i < len(s); i += n {
		out = append(out, s[i])
	}
	return out
}

// runChanges runs steps random changes of universe's objects through a
// Translator and returns how many changed the output.
func runChanges(t *testing.T, universe []runtime.Object, opts sesame.Options, rng *rand.Rand, steps int) int {
	t.Helper()
	tr := sesame.NewTranslator(opts)
	changes := runSteps(t, tr, universe, opts, steps, func(held map[sesame.ObjectKey]runtime.Object) ([]runtime.Object, []sesame.ObjectKey) {
		return randomChanges(rng, held, universe)
	})
	t.Logf("%d of %d Updates merged", sesame.Merges(tr), steps)
	return changes
}

// runSteps gives tr the initial objects, then steps changes drawn by next
// from the objects held, and checks after each that tr's Result is
// Translate's of the same objects, and its delta the difference; it
// returns how many steps changed the output.
func runSteps(t *testing.T, tr *sesame.Translator, initial []runtime.Object, opts sesame.Options, steps int,
	next func(held map[sesame.ObjectKey]runtime.Object) ([]runtime.Object, []sesame.ObjectKey),
) int {
	t.Helper()
	held := map[sesame.ObjectKey]runtime.Object{}
	var prev *sesame.Result
	changes := 0
	for step := range steps + 1 {
		var changed []runtime.Object
		var deleted []sesame.ObjectKey
		if step == 0 {
			changed = initial
		} else {
			changed, deleted = next(held)
		}
		res, delta, err := tr.Update(changed, deleted)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		for _, obj := range changed {
			key, err := sesame.KeyOf(obj)
			if err != nil {
				t.Fatal(err)
			}
			held[key] = obj
		}
		for _, key := range deleted { // after the changes, as Update does
			delete(held, key)
		}
		objects := make([]runtime.Object, 0, len(held))
		for _, obj := range held { // map order: another order than the Translator's
			objects = append(objects, obj)
		}
		want, err := sesame.Translate(objects, opts)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if got, wantDoc := document(t, res), document(t, want); !bytes.Equal(got, wantDoc) {
			t.Fatalf("step %d (%s): the Translator's result differs from Translate's%s:\n%s", step, describe(changed, deleted),
				differingHosts(res, want), cmp.Diff(string(wantDoc), string(got)))
		}
		for _, gw := range want.Gateways() {
			got, want := res.ForGateway(gw), want.ForGateway(gw)
			for _, pair := range typePairs(got, want) {
				if diff := cmp.Diff(pair[1], pair[0], protocmp.Transform()); diff != "" {
					t.Fatalf("step %d (%s): ForGateway(%s) differs (-want +got):\n%s", step, describe(changed, deleted), gw, diff)
				}
			}
		}
		wantDelta := naiveDelta(t, prev, res)
		if diff := cmp.Diff(wantDelta, delta, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("step %d (%s): delta (-want +got):\n%s", step, describe(changed, deleted), diff)
		}
		if step > 0 && !delta.Empty() {
			changes++
		}
		prev = res
	}
	return changes
}

// differingHosts names the virtual hosts that differ between got and
// want, to read before the diff of the documents.
func differingHosts(got, want *sesame.Result) string {
	var out []string
	for _, rc := range want.XDS.Routes {
		i := slices.IndexFunc(got.XDS.Routes, func(x *routev3.RouteConfiguration) bool { return x.GetName() == rc.GetName() })
		if i < 0 {
			out = append(out, "missing "+rc.GetName())
			continue
		}
		var wantNames, gotNames []string
		for _, vh := range rc.VirtualHosts {
			wantNames = append(wantNames, vh.GetName())
		}
		for _, vh := range got.XDS.Routes[i].VirtualHosts {
			gotNames = append(gotNames, vh.GetName())
		}
		if !slices.Equal(wantNames, gotNames) {
			out = append(out, fmt.Sprintf("%s: virtual hosts %v, want %v", rc.GetName(), gotNames, wantNames))
			continue
		}
		for j, vh := range rc.VirtualHosts {
			if g := got.XDS.Routes[i].VirtualHosts[j]; !proto.Equal(vh, g) {
				var wantRoutes, gotRoutes []string
				for _, r := range vh.Routes {
					wantRoutes = append(wantRoutes, r.GetName())
				}
				for _, r := range g.Routes {
					gotRoutes = append(gotRoutes, r.GetName())
				}
				out = append(out, fmt.Sprintf("virtual host %s differs: routes %v, want %v", vh.GetName(), gotRoutes, wantRoutes))
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, "; ") + ")"
}

func document(t *testing.T, res *sesame.Result) []byte {
	t.Helper()
	doc, err := render.Document(res, render.JSON)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func describe(changed []runtime.Object, deleted []sesame.ObjectKey) string {
	var s []string
	for _, obj := range changed {
		key, _ := sesame.KeyOf(obj)
		s = append(s, "changed "+key.String())
	}
	for _, key := range deleted {
		s = append(s, "deleted "+key.String())
	}
	return fmt.Sprint(s)
}

// naiveDelta compares two results the slow way: every resource by name
// with proto.Equal, every status by its JSON.
func naiveDelta(t *testing.T, prev, next *sesame.Result) *sesame.Delta {
	t.Helper()
	if prev == nil {
		prev = &sesame.Result{XDS: &xdsgen.Resources{}}
	}
	d := &sesame.Delta{
		Listeners: diffNamed(t, prev.XDS.Listeners, next.XDS.Listeners),
		Routes:    diffNamed(t, prev.XDS.Routes, next.XDS.Routes),
		Clusters:  diffNamed(t, prev.XDS.Clusters, next.XDS.Clusters),
		Endpoints: diffNamed(t, prev.XDS.Endpoints, next.XDS.Endpoints),
		Secrets:   diffNamed(t, prev.XDS.Secrets, next.XDS.Secrets),
	}
	key := func(apiVersion, kind, ns, name string) string { return apiVersion + "|" + kind + "|" + ns + "|" + name }
	before := map[string][]byte{}
	for _, s := range prev.Status {
		data, _ := json.Marshal(s)
		before[key(s.APIVersion, s.Kind, s.Namespace, s.Name)] = data
	}
	after := map[string]bool{}
	for _, s := range next.Status {
		k := key(s.APIVersion, s.Kind, s.Namespace, s.Name)
		after[k] = true
		if data, _ := json.Marshal(s); !bytes.Equal(before[k], data) {
			d.Status = append(d.Status, s)
		}
	}
	for _, s := range prev.Status {
		if !after[key(s.APIVersion, s.Kind, s.Namespace, s.Name)] {
			gv := s.APIVersion
			if i := bytes.IndexByte([]byte(gv), '/'); i >= 0 {
				gv = gv[:i]
			} else {
				gv = ""
			}
			d.StatusRemoved = append(d.StatusRemoved, sesame.ObjectKey{Group: gv, Kind: s.Kind, Namespace: s.Namespace, Name: s.Name})
		}
	}
	// By key, as Delta says: Result.Status's order is by apiVersion, which
	// puts HTTPProxy (projectcontour.io/v1) before ExtensionService
	// (projectcontour.io/v1alpha1).
	slices.SortFunc(d.StatusRemoved, func(a, b sesame.ObjectKey) int {
		for _, c := range [...]int{strings.Compare(a.Group, b.Group), strings.Compare(a.Kind, b.Kind), strings.Compare(a.Namespace, b.Namespace)} {
			if c != 0 {
				return c
			}
		}
		return strings.Compare(a.Name, b.Name)
	})
	return d
}

func diffNamed[T proto.Message](t *testing.T, prev, next []T) sesame.ResourceDelta {
	t.Helper()
	name := func(m T) string {
		switch x := any(m).(type) {
		case interface{ GetClusterName() string }:
			return x.GetClusterName()
		case interface{ GetName() string }:
			return x.GetName()
		}
		t.Fatalf("%T has no name", m)
		return ""
	}
	old := map[string]T{}
	for _, m := range prev {
		old[name(m)] = m
	}
	var d sesame.ResourceDelta
	seen := map[string]bool{}
	for _, m := range next {
		n := name(m)
		seen[n] = true
		if was, ok := old[n]; !ok {
			d.Added = append(d.Added, n)
		} else if !proto.Equal(was, m) {
			d.Changed = append(d.Changed, n)
		}
	}
	for n := range old {
		if !seen[n] {
			d.Removed = append(d.Removed, n)
		}
	}
	slices.Sort(d.Added)
	slices.Sort(d.Changed)
	slices.Sort(d.Removed)
	return d
}
