// Package flowcontrol will limit the requests an UpstreamCluster passes on
// (seed 002): Exempt, MaxRequestsInflight and TokenBucket schemas, with time
// passed in rather than read from a clock.
//
// It holds no code yet.
package flowcontrol
