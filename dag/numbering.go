package dag

// numberRoutes lists the routes of listeners once each, in the order
// listeners, filter chains and virtual hosts reach them, and sets each
// route's ID to its index in the list. The graph is complete then, so the
// match keys that placing routes needed are let go.
func numberRoutes(listeners []*Listener) []*Route {
	var out []*Route
	for r := range routesOf(listeners) {
		if !r.numbered {
			r.numbered, r.ID, r.key = true, len(out), ""
			out = append(out, r)
		}
	}
	return out
}
