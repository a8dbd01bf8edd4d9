// Package flowcontrol limits the requests an UpstreamCluster passes on, as
// the flow control schemas of seed 002 describe: Exempt admits everything,
// MaxRequestsInflight admits at most Max requests at a time, and TokenBucket
// admits requests at a smoothed rate of QPS with bursts of up to Burst. A
// Schema (the API's FlowControlSchema itself, apis/proxy/v1alpha1) is
// validated once by New, which returns a Limiter; a Set holds the Limiters of
// one UpstreamCluster by schema name and answers DispatchPolicy's
// flowControlSchemaName, falling back to Exempt, with a warning, for names it
// does not hold. Every decision takes the current time as an argument
// (Allow(now)); nothing in the package reads a clock, so a test, a simulation
// and a proxy get the same answers from the same timeline. Time that goes
// backwards never creates tokens. Limiters are safe for concurrent use, a
// decision does not allocate, and a schema change resizes a Limiter in place
// (Resize, Set.Update), keeping the requests in flight and clamping the
// tokens saved to the new burst.
//
// # The seed and this package
//
// The seed names the three methods but not their edge cases; kube-gateway's
// API comments add some. Where they are silent or disagree, Sesame does this:
//
//   - Zero limits. MaxRequestsInflight with Max 0 and TokenBucket with Burst 0
//     admit nothing; TokenBucket with QPS 0 admits Burst requests and then
//     nothing (kube-gateway's comment says QPS "can not be zero", but a
//     schema that admits a fixed number of requests is well defined).
//     Negative values are rejected by New with an error naming the field.
//   - Burst below QPS. kube-gateway's comment says Burst "must be bigger than
//     QPS"; Sesame does not require it: such a bucket is well defined, and
//     simply never saves more than Burst tokens.
//   - One method per schema. The seed's configuration says "only one of its
//     members may be specified"; New rejects a schema with none or several.
//   - Unset and unknown names. An empty flowControlSchemaName means "no
//     limit" in the seed, so Set.Get("") returns Exempt without a warning. A
//     name the Set does not hold also gets Exempt (a misconfigured policy
//     keeps serving), but with a warning that names it.
package flowcontrol
