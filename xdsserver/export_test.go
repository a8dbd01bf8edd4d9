package xdsserver

import "github.com/envoyproxy/go-control-plane/pkg/cache/types"

// DigestsKept is how many message and virtual host digests s keeps.
func DigestsKept(s *Server) int {
	return len(s.digests.sums) + len(s.digests.pieces)
}

// Patches is how many types s's Sets patched from the last Set's.
func Patches(s *Server) int { return s.digests.patches }

// Served is what s serves group of a type: each resource's version and
// message, by name.
func Served(s *Server, group, typeURL string) (map[string]string, map[string]types.Resource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap, ok := s.groups[group]
	if !ok {
		return nil, nil
	}
	items := map[string]types.Resource{}
	for name, r := range snap.GetResourcesAndTTL(typeURL) {
		items[name] = r.Resource
	}
	return snap.GetVersionMap(typeURL), items
}

// SharedTypes is how many types groups a and b were last Set with share,
// made once for both.
func SharedTypes(s *Server, a, b string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for t := range s.served[a].types {
		x, y := s.served[a].types[t].items, s.served[b].types[t].items
		if len(x) > 0 && len(x) == len(y) && &x[0] == &y[0] {
			n++
		}
	}
	return n
}
