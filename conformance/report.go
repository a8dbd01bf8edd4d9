package conformance

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	confv1 "sigs.k8s.io/gateway-api/conformance/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/suite"
	"sigs.k8s.io/gateway-api/pkg/features"
)

// Profiles are the conformance profiles the offline run reports on: the
// Gateway profiles of the route kinds Sesame serves (layer 7; seed 001).
var Profiles = []suite.ConformanceProfile{
	suite.GatewayHTTPConformanceProfile,
	suite.GatewayGRPCConformanceProfile,
	suite.GatewayTLSConformanceProfile,
}

// ReportMeta is what a ConformanceReport says besides the results.
type ReportMeta struct {
	Implementation    confv1.Implementation
	Date              string // RFC 3339
	GatewayAPIVersion string
	GatewayAPIChannel string
}

// report builds the upstream ConformanceReport of the run, in the shape
// `go test ./conformance` of gateway-api writes it, for the features
// claimed: per profile, the core and extended tests that passed, failed
// and were skipped. A test that was not judged counts as skipped (so the
// profile's result is at best partial), never as passed; tests of features
// that are not claimed are left out, and those features are listed as
// unsupported.
func (r *results) report(meta ReportMeta, claimed sets.Set[features.FeatureName]) *confv1.ConformanceReport {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := &confv1.ConformanceReport{
		TypeMeta:          metav1.TypeMeta{APIVersion: confv1.GroupVersion.String(), Kind: "ConformanceReport"},
		Implementation:    meta.Implementation,
		Date:              meta.Date,
		Mode:              "default",
		GatewayAPIVersion: meta.GatewayAPIVersion,
		GatewayAPIChannel: meta.GatewayAPIChannel,
	}
	for _, p := range Profiles {
		pr := confv1.ProfileReport{Name: string(p.Name)}
		extended := &confv1.ExtendedStatus{}
		for _, name := range sortedKeys(r.byID) {
			res := r.byID[name]
			if !inProfile(p, res.test) || res.outcome == notClaimed {
				continue
			}
			status := &pr.Core
			if !p.CoreFeatures.HasAll(res.test.Features...) {
				status = &extended.Status
			}
			switch res.outcome {
			case passed:
				status.Passed++
			case failed:
				status.Failed++
				status.FailedTests = append(status.FailedTests, name)
			default:
				status.Skipped++
				status.SkippedTests = append(status.SkippedTests, name)
			}
		}
		if pr.Core.Passed+pr.Core.Failed+pr.Core.Skipped+extended.Passed+extended.Failed+extended.Skipped == 0 {
			continue // no test of the profile was claimed
		}
		pr.Core.Result = resultOf(pr.Core)
		summary := "Core tests " + describe(pr.Core)
		if extended.Passed+extended.Failed+extended.Skipped > 0 {
			extended.Result = resultOf(extended.Status)
			for _, f := range sets.List(p.ExtendedFeatures) {
				if claimed.Has(f) {
					extended.SupportedFeatures = append(extended.SupportedFeatures, string(f))
				} else {
					extended.UnsupportedFeatures = append(extended.UnsupportedFeatures, string(f))
				}
			}
			pr.Extended = extended
			summary += ". Extended tests " + describe(extended.Status)
		}
		pr.Summary = summary + "."
		out.ProfileReports = append(out.ProfileReports, pr)
	}
	for _, name := range sortedKeys(r.byID) {
		if res := r.byID[name]; res.outcome == passed && res.test.Provisional {
			out.SucceededProvisionalTests = append(out.SucceededProvisionalTests, name)
		}
	}
	slices.Sort(out.SucceededProvisionalTests)
	return out
}

// inProfile reports whether every feature test needs is in profile p, as
// the suite assigns tests to profiles.
func inProfile(p suite.ConformanceProfile, test suite.ConformanceTest) bool {
	for _, f := range test.Features {
		if !p.CoreFeatures.Has(f) && !p.ExtendedFeatures.Has(f) {
			return false
		}
	}
	return true
}

func resultOf(s confv1.Status) confv1.Result {
	switch {
	case s.Failed > 0:
		return confv1.Failure
	case s.Skipped > 0:
		return confv1.Partial
	}
	return confv1.Success
}

func describe(s confv1.Status) string {
	switch s.Result {
	case confv1.Failure:
		return fmt.Sprintf("failed with %d test failures", s.Failed)
	case confv1.Partial:
		return fmt.Sprintf("partially succeeded with %d test skips", s.Skipped)
	}
	return "succeeded"
}
