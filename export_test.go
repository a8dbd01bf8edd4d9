package sesame

// Repair runs on r what Translate runs when a generated message fails
// Envoy's validation, so that tests can inject such a message, which no
// input is known to cause.
func Repair(r *Result) error { return r.repair() }
