package resources

// EDSName is edsName, for the tests of package resources_test.
var EDSName = edsName

// ConsistentWithCheckedNames is Consistent with the load assignment names
// that checkNames collected, as CheckNames checks.
func (r *Set) ConsistentWithCheckedNames() error {
	_, loadAssignments := r.checkNames()
	return r.consistent(loadAssignments, nil)
}
