package sesame_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/manifest"
)

// gatewayAPIDir holds the Gateway API's own examples, of its standard and
// experimental channels; its README says where they come from and what
// the tests do with them.
const gatewayAPIDir = "testdata/upstream/gateway-api"

// TestGatewayAPIExamples translates the Gateway API project's examples as a
// user tries them: each directory of manifests whole (kubectl apply -f DIR;
// of the copies of one object, the last is kept, as apply leaves it), each
// file at the top of a channel alone, in namespace default, with a
// GatewayClass of Sesame's controller for each class their Gateways name
// (the oldest is served, the others rejected). Every example must
// translate into valid, consistent Envoy resources without repairs;
// nothing of it may vanish (accountFor); and its listeners, skipped kinds,
// replaced copies and the conditions gatewayAPIExamples lists must be as
// said.
func TestGatewayAPIExamples(t *testing.T) {
	units := gatewayAPIUnits(t)
	if len(units) != len(gatewayAPIExamples) {
		t.Errorf("%d examples for %d expectations", len(units), len(gatewayAPIExamples))
	}
	for unit, files := range units {
		t.Run(unit, func(t *testing.T) {
			want, ok := gatewayAPIExamples[unit]
			if !ok {
				t.Fatal("no expectations in gatewayAPIExamples")
			}
			objects, skipped, replaced := decodeExampleFiles(t, files)
			if !slices.Equal(skipped, want.skipped) || replaced != want.replaced {
				t.Errorf("skipped kinds %q and %d replaced copies, want %q and %d", skipped, replaced, want.skipped, want.replaced)
			}
			res := translateExample(t, objects)
			if got := len(res.XDS.Listeners); got != want.listeners {
				t.Errorf("%d Envoy listeners, want %d; warnings: %q", got, want.listeners, res.Warnings)
			}
			for _, c := range want.conditions {
				if msg := c.check(res); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
}

// gatewayAPIUnits lists the examples by their path under gatewayAPIDir,
// each with its files: every directory below a channel's that holds
// manifests, and every manifest directly in a channel's directory.
func gatewayAPIUnits(t *testing.T) map[string][]string {
	t.Helper()
	units := map[string][]string{}
	for _, channel := range []string{"standard", "experimental"} {
		root := filepath.Join(gatewayAPIDir, channel)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
				return err
			}
			unit := filepath.Dir(path)
			if unit == root {
				unit = path
			}
			rel, _ := filepath.Rel(gatewayAPIDir, unit)
			units[filepath.ToSlash(rel)] = append(units[filepath.ToSlash(rel)], path)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return units
}

// TestGatewayAPIExampleFiles translates every file of the examples alone,
// as a user who applies one file at a time would: valid, consistent Envoy
// resources without repairs, and nothing vanishes.
func TestGatewayAPIExampleFiles(t *testing.T) {
	var files []string
	for _, unit := range gatewayAPIUnits(t) {
		files = append(files, unit...)
	}
	slices.Sort(files)
	if len(files) < 70 {
		t.Fatalf("%d example files", len(files))
	}
	for _, path := range files {
		t.Run(strings.TrimPrefix(filepath.ToSlash(path), gatewayAPIDir+"/"), func(t *testing.T) {
			objects, _, _ := decodeExampleFiles(t, []string{path})
			translateExample(t, objects)
		})
	}
}

// decodeExampleFiles decodes files as sesame translate -f does, with
// namespace default for objects that name none, and returns the objects,
// the kinds the decoder skipped and how many copies later ones replaced.
// Any other decoding warning fails the test.
func decodeExampleFiles(t *testing.T, files []string) (objects []runtime.Object, skipped []string, replaced int) {
	t.Helper()
	dec := &manifest.Decoder{Namespace: "default"}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		objs, warnings, err := dec.Decode(filepath.Base(file), f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		objects = append(objects, objs...)
		for _, w := range warnings {
			rest, ok := strings.CutPrefix(w.Message, "skipped ")
			fields := strings.Fields(rest)
			if !ok || len(fields) < 2 {
				t.Errorf("decoding: %s", w)
				continue
			}
			skipped = append(skipped, strings.TrimSuffix(fields[1], ":"))
		}
	}
	objects, dropped := dec.Dedupe(objects)
	return objects, skipped, len(dropped)
}

// translateExample translates objects with a GatewayClass of Sesame's
// controller for each class their Gateways name, the first named the
// oldest, and requires valid Envoy resources and every object accounted
// for.
func translateExample(t *testing.T, objects []runtime.Object) *sesame.Result {
	t.Helper()
	var classes []runtime.Object
	var seen []string
	for _, o := range objects {
		gw, ok := o.(*gatewayv1.Gateway)
		if !ok || slices.Contains(seen, string(gw.Spec.GatewayClassName)) {
			continue
		}
		seen = append(seen, string(gw.Spec.GatewayClassName))
		classes = append(classes, &gatewayv1.GatewayClass{
			TypeMeta: metav1.TypeMeta{APIVersion: gatewayv1.GroupVersion.String(), Kind: "GatewayClass"},
			ObjectMeta: metav1.ObjectMeta{
				Name:              string(gw.Spec.GatewayClassName),
				CreationTimestamp: metav1.NewTime(goldenNow.AddDate(-1, 0, 0).Add(time.Duration(len(classes)) * time.Hour)),
			},
			Spec: gatewayv1.GatewayClassSpec{ControllerName: "projectsesame.io/gateway-controller"},
		})
	}
	input := append(classes, objects...)
	res := translateValid(t, input, sesame.Options{Now: goldenNow}) // validated, and a consistent snapshot (checkEnvoy)
	for _, o := range input {
		if msg := accountFor(res, o); msg != "" {
			t.Error(msg)
		}
	}
	return res
}

// accountFor says how o vanished from res, "" when it did not: an object
// that gets status must have status, an Event, or a warning that names its
// kind and its name. Objects others refer to (Namespaces, Services,
// Secrets, ReferenceGrants...) shape the output when referred to and are
// warned of when not (TestUnusedWarnings), which this cannot tell apart.
func accountFor(res *sesame.Result, o runtime.Object) string {
	m, err := meta.Accessor(o)
	if err != nil {
		return fmt.Sprintf("%T: %v", o, err)
	}
	kind := o.GetObjectKind().GroupVersionKind().Kind
	switch kind {
	case "Namespace", "Service", "EndpointSlice", "Secret", "ConfigMap", "ReferenceGrant":
		return ""
	}
	for _, s := range res.Status {
		if s.Kind == kind && s.Namespace == m.GetNamespace() && s.Name == m.GetName() {
			return ""
		}
	}
	for _, e := range res.Events {
		if e.Kind == kind && e.Namespace == m.GetNamespace() && e.Name == m.GetName() {
			return ""
		}
	}
	name := m.GetName()
	if m.GetNamespace() != "" {
		name = m.GetNamespace() + "/" + name
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, kind) && containsName(w, name) {
			return ""
		}
	}
	return fmt.Sprintf("%s %s vanished: no status, no Event, no warning names it; warnings: %q", kind, name, res.Warnings)
}

// containsName reports whether name occurs in s as a whole name, not as
// part of a longer one.
func containsName(s, name string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		if (start == 0 || !isNameByte(s[start-1])) && (end == len(s) || !isNameByte(s[end])) {
			return true
		}
		i = start + 1
	}
}

func isNameByte(c byte) bool {
	return c == '-' || c == '.' || c == '/' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// gatewayAPIExample is what Sesame makes of one example.
type gatewayAPIExample struct {
	skipped    []string // kinds the decoder skipped, in order
	replaced   int      // copies a later one of the same object replaced: the files are variants of one route
	listeners  int      // Envoy listeners
	conditions []exampleCondition
}

// exampleCondition is a condition an object of an example should have: a
// Gateway's or ListenerSet's own, a route's for its first parent.
type exampleCondition struct {
	kind, object string // namespace/name
	condition    string
	status       bool
	reason       string
}

func (c exampleCondition) check(res *sesame.Result) string {
	ns, name, _ := strings.Cut(c.object, "/")
	for _, s := range res.Status {
		if s.Kind != c.kind || s.Namespace != ns || s.Name != name {
			continue
		}
		conds := routeParentConditions(s)
		switch st := s.Status.(type) {
		case *gatewayv1.GatewayStatus:
			conds = st.Conditions
		case *gatewayv1.ListenerSetStatus:
			conds = st.Conditions
		}
		got := meta.FindStatusCondition(conds, c.condition)
		switch {
		case got == nil:
			return fmt.Sprintf("%s %s: no %s condition", c.kind, c.object, c.condition)
		case (got.Status == metav1.ConditionTrue) != c.status || got.Reason != c.reason:
			return fmt.Sprintf("%s %s: %s=%s %s (%s), want %v %s", c.kind, c.object, c.condition, got.Status, got.Reason, got.Message, c.status, c.reason)
		}
		return ""
	}
	return fmt.Sprintf("%s %s has no status", c.kind, c.object)
}

// routeParents are the parent statuses of a route's status update, nil for
// another kind's.
func routeParents(s graph.StatusUpdate) []gatewayv1.RouteParentStatus {
	switch st := s.Status.(type) {
	case *gatewayv1.HTTPRouteStatus:
		return st.Parents
	case *gatewayv1.GRPCRouteStatus:
		return st.Parents
	case *gatewayv1.TLSRouteStatus:
		return st.Parents
	}
	return nil
}

// routeParentConditions are the conditions of a route's first parent, nil
// for another kind's status or a route without parents.
func routeParentConditions(s graph.StatusUpdate) []metav1.Condition {
	if parents := routeParents(s); len(parents) > 0 {
		return parents[0].Conditions
	}
	return nil
}
