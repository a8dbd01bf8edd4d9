package sesame

import "github.com/projectsesame/sesame/explain"

// Explain says where req goes in this result's Envoy configuration and
// why, step by step, naming the object behind each step and the
// candidates passed over (package explain). The error is for a request
// the configuration cannot place: a port that several Gateways listen on,
// when req.Gateway does not say which.
//
// A Result does not keep the objects it was translated from, so the routes
// a Gateway refused are all listed among the candidates passed over; call
// explain.Explain with explain.Input.Objects, as sesame explain does, to
// list only those whose hostnames could take the request.
func (r *Result) Explain(req explain.Request) (*explain.Explanation, error) {
	return explain.Explain(explain.Input{XDS: r.XDS, Status: r.Status}, req)
}
