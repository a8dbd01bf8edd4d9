package conformance

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/sets"
	confv1 "sigs.k8s.io/gateway-api/conformance/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/suite"
	"sigs.k8s.io/gateway-api/pkg/features"
)

// TestReport: tests land in the profiles whose features they need, core or
// extended by those features; a test not judged is a skip, never a pass;
// tests of unclaimed features are left out, and the profile's extended
// features are split into supported and unsupported by the claim.
func TestReport(t *testing.T) {
	test := func(name string, fs ...features.FeatureName) suite.ConformanceTest {
		return suite.ConformanceTest{ShortName: name, Features: fs}
	}
	gw, http, grpc, cors := features.SupportGateway, features.SupportHTTPRoute, features.SupportGRPCRoute, features.SupportHTTPRouteCORS
	var rs results
	rs.record(test("CorePass", gw, http), passed, "")
	rs.record(test("CoreFail", gw, http), failed, "")
	rs.record(test("CoreNotJudged", gw, http), notJudged, "dials itself")
	rs.record(test("ExtendedPass", gw, http, cors), passed, "")
	rs.record(test("Unclaimed", gw, http, features.SupportHTTPRouteRequestMirror), notClaimed, "")
	rs.record(test("GRPCPass", gw, grpc), passed, "")
	claimed := sets.New(gw, http, grpc, cors)
	r := rs.report(ReportMeta{Implementation: confv1.Implementation{Project: "sesame"}, Date: "2026-01-01T00:00:00Z", GatewayAPIVersion: "v1.6.3", GatewayAPIChannel: "experimental"}, claimed)

	if len(r.ProfileReports) != 2 {
		t.Fatalf("%d profiles, want GATEWAY-HTTP and GATEWAY-GRPC (no TLS test was run)", len(r.ProfileReports))
	}
	httpProfile := r.ProfileReports[0]
	if httpProfile.Name != string(suite.GatewayHTTPConformanceProfileName) {
		t.Fatalf("first profile %q", httpProfile.Name)
	}
	wantCore := confv1.Status{
		Result:       confv1.Failure,
		Statistics:   confv1.Statistics{Passed: 1, Failed: 1, Skipped: 1},
		FailedTests:  []string{"CoreFail"},
		SkippedTests: []string{"CoreNotJudged"},
	}
	if diff := cmp.Diff(wantCore, httpProfile.Core); diff != "" {
		t.Errorf("GATEWAY-HTTP core (-want +got):\n%s", diff)
	}
	ext := httpProfile.Extended
	if ext == nil || ext.Passed != 1 || ext.Failed != 0 || ext.Skipped != 0 || ext.Result != confv1.Success {
		t.Fatalf("GATEWAY-HTTP extended = %+v, want ExtendedPass alone, a success", ext)
	}
	if !cmp.Equal(ext.SupportedFeatures, []string{string(cors)}) || !slices.Contains(ext.UnsupportedFeatures, string(features.SupportHTTPRouteRequestMirror)) {
		t.Errorf("supported %v, unsupported %v", ext.SupportedFeatures, ext.UnsupportedFeatures)
	}
	if want := "Core tests failed with 1 test failures. Extended tests succeeded."; httpProfile.Summary != want {
		t.Errorf("summary %q, want %q", httpProfile.Summary, want)
	}
	grpcProfile := r.ProfileReports[1]
	if grpcProfile.Core.Passed != 1 || grpcProfile.Core.Result != confv1.Success || grpcProfile.Extended != nil {
		t.Errorf("GATEWAY-GRPC = %+v, want GRPCPass alone", grpcProfile)
	}
}
