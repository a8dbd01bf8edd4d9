// Package order is the order in which the builders take objects: oldest
// first by creationTimestamp, then by "<namespace>/<name>", as the Gateway
// API and the seeds break ties (OldestFirst, CompareNames), and, for the
// two objects of one name that only hostile input has, the older kept
// (KeepOlder), so that no result depends on the order of the input.
package order
