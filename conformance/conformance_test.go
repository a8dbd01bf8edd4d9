package conformance

import (
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
	upstream "sigs.k8s.io/gateway-api/conformance"
	confv1 "sigs.k8s.io/gateway-api/conformance/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/tests"
	"sigs.k8s.io/gateway-api/conformance/utils/config"
	"sigs.k8s.io/gateway-api/conformance/utils/suite"
	"sigs.k8s.io/gateway-api/pkg/features"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/dag"
)

var (
	all     = flag.Bool("all", false, "run the tests of every feature, not only those Sesame claims")
	runTest = flag.String("test", "", "run only the conformance test of this short name")
	report  = flag.String("report", "", "write the upstream ConformanceReport YAML of the run to this file")
)

// fastTimeouts suit a cluster where every change is complete when its call
// returns: what is not true at the first look will not become true.
func fastTimeouts() config.TimeoutConfig {
	tc := config.DefaultTimeoutConfig()
	const short = 2 * time.Second
	tc.CreateTimeout, tc.DeleteTimeout, tc.GetTimeout = short, short, short
	tc.GatewayMustHaveAddress, tc.GatewayMustHaveCondition = short, short
	tc.GatewayStatusMustHaveListeners, tc.GatewayListenersMustHaveConditions = short, short
	tc.ListenerSetMustHaveCondition, tc.ListenerSetListenersMustHaveConditions = short, short
	tc.GWCMustBeAccepted, tc.HTTPRouteMustNotHaveParents, tc.HTTPRouteMustHaveCondition = short, short, short
	tc.TLSRouteMustHaveCondition, tc.RouteMustHaveParents = short, short
	tc.MaxTimeToConsistency, tc.NamespacesMustBeReady, tc.RequestTimeout = short, short, short
	tc.LatestObservedGenerationSet, tc.DefaultTestTimeout = short, short
	tc.DefaultPollInterval = 5 * time.Millisecond
	tc.RequiredConsecutiveSuccesses = 1
	return tc
}

func TestConformance(t *testing.T) {
	cluster, err := NewCluster(dag.DefaultControllerName, crdDir(t))
	if err != nil {
		t.Fatal(err)
	}
	gwc := &gatewayv1.GatewayClass{
		ObjectMeta: metav1.ObjectMeta{Name: "sesame"},
		Spec:       gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName},
	}
	if err := cluster.Create(t.Context(), gwc); err != nil {
		t.Fatal(err)
	}
	rt := NewRoundTripper(cluster)
	ws := NewWebSocketDialer(rt)
	t.Cleanup(ws.Close)
	opts := suite.ConformanceOptions{
		ConfigurableOptions: suite.ConfigurableOptions{
			GatewayClassName:     "sesame",
			CleanupBaseResources: true,
			CleanupTestResources: true,
			TimeoutConfig:        fastTimeouts(),
			// What the fleets' load balancer takes (fleet.go).
			UsableNetworkAddresses:   usableAddresses,
			UnusableNetworkAddresses: unusableAddresses,
			DisableParallelTests:     true,
			RunTest:                  *runTest,
			Implementation: confv1.Implementation{
				Organization: "projectsesame", Project: "sesame",
				URL: "https://github.com/projectsesame/sesame", Version: "main",
				Contact: []string{"https://github.com/projectsesame/sesame/issues"},
			},
			ConformanceProfiles: []suite.ConformanceProfileName{
				suite.GatewayHTTPConformanceProfileName, suite.GatewayGRPCConformanceProfileName, suite.GatewayTLSConformanceProfileName,
			},
		},
		Client:          cluster,
		Clientset:       cluster.Clientset(),
		RoundTripper:    rt,
		GRPCClient:      NewGRPCClient(rt),
		WebSocketDialer: ws,
		ManifestFS:      []fs.FS{&upstream.Manifests},
	}
	if *all {
		opts.EnableAllSupportedFeatures = true
		opts.ExemptFeatures = outOfScope()
	} else {
		opts.SupportedFeatures = claimed(t, cluster, gwc)
	}
	s, err := suite.NewConformanceTestSuite(opts)
	if err != nil {
		t.Fatal(err)
	}
	s.Setup(t, tests.ConformanceTests)
	var rs results
	for _, test := range tests.ConformanceTests {
		t.Run(test.ShortName, func(t *testing.T) { run(t, s, test, &rs) })
	}
	var summary strings.Builder
	rs.summary(&summary)
	t.Logf("conformance tests by feature:\n%s", summary.String())
	if *report != "" {
		writeReport(t, &rs, opts, s)
	}
}

// writeReport writes the run's ConformanceReport to *report.
func writeReport(t *testing.T, rs *results, opts suite.ConformanceOptions, s *suite.ConformanceTestSuite) {
	meta := ReportMeta{
		Implementation:    opts.Implementation,
		Date:              time.Now().UTC().Format(time.RFC3339),
		GatewayAPIVersion: bundleVersion(t),
		GatewayAPIChannel: "experimental",
	}
	data, err := yaml.Marshal(rs.report(meta, s.SupportedFeatures))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*report, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", *report)
}

// bundleVersion is the gateway-api version go.mod names.
func bundleVersion(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "sigs.k8s.io/gateway-api").Output()
	if err != nil {
		t.Fatalf("finding the gateway-api module: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// run runs one conformance test and records its outcome.
func run(t *testing.T, s *suite.ConformanceTestSuite, test suite.ConformanceTest, rs *results) {
	if !s.SupportedFeatures.HasAll(test.Features...) {
		rs.record(test, notClaimed, "")
		t.Skip("not claimed: needs " + strings.Join(missing(s, test), ", "))
	}
	if reason, ok := NotJudged[test.ShortName]; ok {
		rs.record(test, notJudged, reason)
		t.Skip("not judged: " + reason)
	}
	t.Cleanup(func() {
		switch {
		case t.Failed():
			rs.record(test, failed, "")
		case t.Skipped():
			rs.record(test, notJudged, "skipped by the suite")
		default:
			rs.record(test, passed, "")
		}
	})
	test.Run(t, s)
}

// missing lists the features test needs that s does not claim.
func missing(s *suite.ConformanceTestSuite, test suite.ConformanceTest) []string {
	var out []string
	for _, f := range test.Features {
		if !s.SupportedFeatures.Has(f) {
			out = append(out, string(f))
		}
	}
	return out
}

// outOfScope are the features Sesame does not mean to implement: layer 4
// routes (seed 001: Sesame is layer 7) and service meshes.
func outOfScope() []features.FeatureName {
	out := []features.FeatureName{features.SupportTCPRoute, features.SupportUDPRoute}
	for _, f := range features.AllFeatures.UnsortedList() {
		if strings.HasPrefix(string(f.Name), "Mesh") {
			out = append(out, f.Name)
		}
	}
	return out
}

// claimed are the features the GatewayClass's status lists: what Sesame
// claims to every user, checked here.
func claimed(t *testing.T, cluster *Cluster, gwc *gatewayv1.GatewayClass) []features.FeatureName {
	if err := cluster.Get(t.Context(), client.ObjectKeyFromObject(gwc), gwc); err != nil {
		t.Fatal(err)
	}
	var out []features.FeatureName
	for _, f := range gwc.Status.SupportedFeatures {
		out = append(out, features.FeatureName(f.Name))
	}
	if len(out) == 0 {
		t.Fatal("the GatewayClass's status lists no supported features")
	}
	return out
}

// crdDir is the experimental channel's CRDs in the module cache's copy of
// the gateway-api module go.mod names.
func crdDir(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/gateway-api").Output()
	if err != nil {
		t.Fatalf("finding the gateway-api module: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "config", "crd", "experimental")
}
