package contour

import (
	"fmt"
	"slices"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/report"
)

// RedirectCode reports whether c is a redirect status: 301, 302, 303, 307
// or 308.
func RedirectCode(c contourv1.RedirectResponseCode) bool {
	return slices.Contains([]contourv1.RedirectResponseCode{301, 302, 303, 307, 308}, c)
}

// DirectResponse reads a directResponsePolicy at field.
func DirectResponse(dp *contourv1.HTTPDirectResponsePolicy, field string) (uint32, string) {
	if dp.StatusCode < 200 || dp.StatusCode > 599 {
		return 0, fmt.Sprintf("%s.statusCode %d is not in 200 to 599.", field, dp.StatusCode)
	}
	if len(dp.Body) > maxDirectBody {
		return 0, fmt.Sprintf("%s.body is %d bytes; at most %d are served.", field, len(dp.Body), maxDirectBody)
	}
	return uint32(dp.StatusCode), ""
}

// maxDirectBody is the longest direct response body: Envoy's default
// max_direct_response_body_size_bytes.
const maxDirectBody = 4096

// InternalRedirect reads an internalRedirectPolicy at field.
func InternalRedirect(ip *contourv1.HTTPInternalRedirectPolicy, field string) (*graph.InternalRedirect, string) {
	if ip == nil {
		return nil, ""
	}
	out := &graph.InternalRedirect{MaxRedirects: ip.MaxInternalRedirects, DenyRepeatedRoute: ip.DenyRepeatedRouteRedirect}
	for i, c := range ip.RedirectResponseCodes {
		if !RedirectCode(c) {
			return nil, fmt.Sprintf("%s.redirectResponseCodes[%d] %d is not 301, 302, 303, 307 or 308.", field, i, c)
		}
		if !slices.Contains(out.StatusCodes, uint32(c)) {
			out.StatusCodes = append(out.StatusCodes, uint32(c))
		}
	}
	switch cs := graph.CrossScheme(ip.AllowCrossSchemeRedirect); cs {
	case "", graph.CrossSchemeNever:
		out.CrossScheme = graph.CrossSchemeNever
	case graph.CrossSchemeAlways, graph.CrossSchemeSafeOnly:
		out.CrossScheme = cs
	default:
		return nil, fmt.Sprintf("%s.allowCrossSchemeRedirect %q is not \"Always\", \"Never\" or \"SafeOnly\".", field, report.Value(ip.AllowCrossSchemeRedirect))
	}
	return out, ""
}
