// Package dispatch decides which dispatch policy of an UpstreamCluster (seed
// 002) serves a Kubernetes API request. Compile validates a list of
// v1alpha1.DispatchPolicy once, reporting every problem with its path
// ("policies[2].rules[0].resources[1]: ...") and returning warnings for what
// it accepts but ignores, and builds a Dispatcher; Dispatcher.Match takes the
// Attributes of a request and returns the first policy, in list order, with
// a rule that matches, and the first such rule. Rules within a policy are
// ORed and the fields within a rule ANDed. Match is pure, safe for concurrent
// use, and never allocates; its cost depends on the number of rules only
// through one AND per 64 rules.
//
// # The rules
//
// Seed 002's table, as implemented. "Resource" and "non-resource" say which
// kind of request a field applies to; a field that does not apply to a
// request is not consulted for it.
//
//	field            applies to      empty list means   "*"   "-x"
//	verbs            both            nothing            all   yes
//	apiGroups        resource        nothing            all   yes
//	resources        resource        nothing            all   yes
//	resourceNames    resource        everything         all   yes
//	users            both            see below          all   yes
//	serviceAccounts  both            see below          no    no (rejected)
//	userGroups       both            everything         all   yes
//	nonResourceURLs  non-resource    nothing            all   ignored beside plain entries; alone, rejected
//
// In users and userGroups, an entry ending in "*" ("user-*", "team-*") is a
// prefix: it selects the values that start with the rest, as KubeGateway
// reads them, negated ("-user-*") or not.
//
// Users and serviceAccounts are one condition: if both are empty, every user
// matches; otherwise a user matches if users matches the user name or a
// listed service account has it (as "system:serviceaccount:<ns>:<name>").
// Users "*" matches everyone, service accounts included.
//
// In resources, "{resource}" matches the resource itself, not its
// subresources; "{resource}/{subresource}" matches one subresource;
// "*/{subresource}" matches that subresource of every resource; "*" matches
// everything; "{resource}/*" is rejected. In nonResourceURLs an entry ending
// in "*" matches every path that starts with the rest ("/healthz/*").
//
// Anti-selection: "*" beside other entries makes them ignored. A list of only
// negated entries ("-pods", "-deployments") matches every value except the
// ones its entries would match without the "-". A list mixing positive and
// negated entries ignores the negated ones, with a Warning. For userGroups,
// whose request value is a set, a positive list matches a user in any listed
// group, and a negated list matches a user in none of the listed groups.
//
// # Where the seed is ambiguous
//
// Every decision below is tested in match_test.go or compile_test.go.
//
//   - Which fields apply to which requests. The table's "required" columns
//     are read as: apiGroups, resources (and resourceNames, which the table
//     omits) are consulted only for resource requests, nonResourceURLs only
//     for non-resource requests; verbs and the subject fields for both.
//   - A rule with nonResourceURLs and any of apiGroups, resources or
//     resourceNames is rejected, as in RBAC ("Rules can either apply to API
//     resources ... or non-resource URL paths ..., but not both").
//   - resourceNames is missing from the table; its field comment is
//     followed: empty means every name, "*" and "-" work. A request without
//     a name (list, create) has name "": a positive list does not match it,
//     a negated list does.
//   - Negated subresources: "-pods" excludes exactly what "pods" selects,
//     the resource itself, so pods/log still matches ["-pods"]; exclude it
//     with "-pods/log" or "-*/log".
//   - The seed's users row ("otherwise it means all users are not
//     matched") is read with the field comment: an empty users list beside
//     service accounts matches no user names, so only those accounts match.
//     Negated users with service accounts match users not excluded or
//     listed as accounts: users ["-x"] with an account whose name is x
//     still matches x.
//   - serviceAccounts are matched by user name only; the groups Kubernetes
//     gives service accounts (system:serviceaccounts, and
//     system:serviceaccounts:<ns>) must be in Attributes.Groups, as the
//     authenticator puts them, to be matched by userGroups. Namespace and
//     name must both be set and be a DNS label and a DNS subdomain; "*" in
//     either is rejected.
//   - userGroups "*", an empty list and a negated list all match a user with
//     no groups; a positive list does not.
//   - "*" beside negated entries (["*", "-pods"]) matches everything: "*"
//     wins, with a Warning, rather than meaning "all but pods".
//   - "*" is special only as a whole entry (and in "*/{subresource}", at
//     the end of a non-resource URL, and at the end of a users or
//     userGroups entry, a prefix); elsewhere ("get*", a user
//     "system:*:ci") it is rejected rather than taken literally, and "-*"
//     is rejected. A negated users prefix that covers a listed service
//     account ("-system:serviceaccount:ns:*" beside serviceAccounts
//     ns/ci) is rejected: the account would match, by the seed's rule,
//     and a prefix cannot say "but this one".
//   - Empty entries are rejected, except in apiGroups, where "" is the core
//     group and "-" is every group but the core group.
//   - nonResourceURLs accepts any path ending in "*", as RBAC does (the
//     seed's own ClusterRole uses "/healthz*"), not only "{path}/*":
//     "/healthz/*" matches "/healthz/etcd" and "/healthz/" but not
//     "/healthz"; "/healthz*" matches all three and "/healthzx". Entries
//     must start with "/".
//   - Repeated entries, service accounts and subset endpoints are accepted
//     with a Warning, and so are rules that can never match (empty verbs;
//     no resources or apiGroups and no nonResourceURLs), policies without
//     rules (which match nothing: the rules are ORed and there are none),
//     and verbs that are not lower case (matching is exact).
//   - Strategy "" means RoundRobin; any other strategy is rejected.
//   - upstreamSubset and the seed's "upsteamSubset": see package v1alpha1.
//     When both were given and differed, Compile warns at
//     "policies[i].upsteamSubset".
//   - Compile does not check that flowControlSchemaName names a schema or
//     that upstreamSubset names servers, as it sees only the policies;
//     Upstreams.Prepare checks the subset, and flowcontrol.Set falls back
//     to Exempt with a warning for an unknown schema name. A subset entry
//     that names no server is skipped, with Prepare's warning, as
//     KubeGateway skips it; nothing left to pick is an error.
//
// # Requests and upstreams
//
// The rest of a gateway's decision is around Match. AttributesFromRequest
// reads a request's Attributes by Kubernetes' request-info rules
// (requestinfo.go, listoptions.go), so that policies see a request as the
// upstream's authorizer will; RequestParser does the same for other API
// prefixes. It is tested against k8s.io/apiserver's RequestInfoFactory on
// a table, on generated requests and by fuzzing, and no disagreement is
// excluded from that comparison. Where it knowingly differs:
//
//   - A verb in the path with nothing after it ("/api/v1/watch") is an
//     error for apiserver, and kube-apiserver answers it with 500.
//     AttributesFromRequest has no error to return: it gives the partial
//     attributes apiserver returns with its error (a resource request with
//     the lower-case method as verb and no resource), which the tests
//     compare.
//   - A query of more than 10000 pairs is read as empty, which is
//     net/url's default limit; a GODEBUG urlmaxqueryparams setting that
//     changes net/url's limit does not change this one.
//   - APIVersion, APIPrefix, Parts and the selectors of apiserver's
//     RequestInfo have no place in Attributes; Path is set for both kinds
//     of request, as in RequestInfo.
//
// Upstreams (upstream.go) then picks the server: NewUpstreams with the
// cluster's servers, Prepare with every policy's upstreamSubset (which
// checks what Compile cannot: that the subset names servers of the
// cluster, warning of those it does not), and Pick with the subset of the
// policy Match returned, which goes round-robin over the subset's servers
// that are not disabled.
//
// A gateway that is Envoy rather than Go code gets the same decisions from
// package dispatch/envoy, which translates the policies Compile accepts
// into Envoy routes and clusters.
package dispatch
