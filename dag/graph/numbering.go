package graph

// numberRoutes lists the routes of listeners once each, in the order
// listeners, filter chains and virtual hosts reach them, and sets each
// route's ID to its index in the list. Builders leave IDs 0: while
// numbering, a route listed has its index plus one.
func numberRoutes(listeners []*Listener) []*Route {
	var out []*Route
	for r := range routesOf(listeners) {
		if r.ID == 0 {
			out = append(out, r)
			r.ID = len(out)
		}
	}
	for _, r := range out {
		r.ID--
	}
	return out
}
