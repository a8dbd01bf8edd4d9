package sesame_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/internal/manifest"
)

// TestKubeGatewaySamples translates the UpstreamCluster samples KubeGateway
// publishes (testdata/upstream/kubegateway, whose README says where they
// come from and what was filled in), each alone: every one decodes without
// a warning and gives valid, consistent Envoy resources; the quick start's
// are Accepted and Programmed; the local-up template's rule, which mixes
// resources and nonResourceURLs, is refused as RBAC refuses it.
func TestKubeGatewaySamples(t *testing.T) {
	files, err := filepath.Glob("testdata/upstream/kubegateway/*.yaml")
	if err != nil || len(files) != 5 {
		t.Fatalf("samples: %v %v", files, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			objects, warnings, err := manifest.Decode(file, f)
			if err != nil || len(warnings) > 0 || len(objects) != 1 {
				t.Fatalf("decode: %d objects, %v %v", len(objects), err, warnings)
			}
			res := translateValid(t, objects, sesame.Options{Now: goldenNow})
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %q", res.Warnings)
			}
			uc := objects[0].(*v1alpha1.UpstreamCluster)
			conds := upstreamConditions(t, res, uc.Name)
			accepted, programmed := conds[v1alpha1.ConditionAccepted], conds[v1alpha1.ConditionProgrammed]
			if filepath.Base(file) == "local-up.yaml" {
				if accepted.Status != metav1.ConditionFalse || accepted.Reason != v1alpha1.ReasonInvalidDispatchPolicy ||
					!strings.Contains(accepted.Message, "spec.dispatchPolicies[0].rules[0]: nonResourceURLs cannot be combined") {
					t.Errorf("Accepted %s %s %q", accepted.Status, accepted.Reason, accepted.Message)
				}
				if len(res.XDS.Listeners) != 0 {
					t.Errorf("a refused cluster is served")
				}
				return
			}
			if accepted.Status != metav1.ConditionTrue || programmed.Status != metav1.ConditionTrue {
				t.Errorf("Accepted %s %q; Programmed %s %q", accepted.Status, accepted.Message, programmed.Status, programmed.Message)
			}
			if !strings.Contains(programmed.Message, "the certificate does not name "+uc.Name) {
				t.Errorf("Programmed does not note that testdata/certs' certificate does not name %s: %q", uc.Name, programmed.Message)
			}
			if len(res.XDS.Listeners) != 1 || len(res.XDS.Listeners[0].FilterChains) != 1 || len(res.XDS.Routes) != 1 || len(res.XDS.Clusters) == 0 || len(res.XDS.Secrets) != 1 {
				t.Errorf("%d listeners, %d route tables, %d clusters, %d secrets", len(res.XDS.Listeners), len(res.XDS.Routes), len(res.XDS.Clusters), len(res.XDS.Secrets))
			}
			t.Logf("Programmed: %s", programmed.Message)
		})
	}
}
