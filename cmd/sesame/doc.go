// Command sesame shows what Kubernetes gateway objects become in Envoy.
//
//	sesame translate -f PATH [-f PATH ...] [-R] [-o yaml|json] [-n NAMESPACE]
//
// prints the Envoy resources and the status of every object, and a summary
// line on stderr; see `sesame translate --help`.
//
//	sesame serve -f PATH [-f PATH ...] [--xds-address 127.0.0.1:18000]
//
// serves them to Envoy over xDS (package xdsserver), translates them again
// as the files change, and prints what changed; see `sesame serve --help`.
//
//	sesame dispatch -f UPSTREAMCLUSTER --method GET --url /api/v1/pods --user alice
//
// shows which dispatch policy of an UpstreamCluster a request meets; see
// `sesame dispatch --help`. `sesame version` prints the version and source
// revision it was built from, and `sesame completion bash` (zsh, fish,
// powershell) a shell completion script.
//
// Its flags are kubectl's (spf13/cobra and pflag, as kubectl and egctl
// use): -f/--filename, -o json, -ojson, -o=json, --output=json, long flags
// with two dashes. A bad flag is one line on stderr and a hint, with exit
// code 2; a path that cannot be read exits 1, and documents that could not
// be decoded, skipped, exit 3. Only this command imports cobra: the
// library does not.
package main
