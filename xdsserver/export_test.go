package xdsserver

// DigestsKept is how many message and virtual host digests s keeps.
func DigestsKept(s *Server) int {
	return len(s.digests.sums) + len(s.digests.pieces)
}
