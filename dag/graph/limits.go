// Message sizes: what Sesame writes into status and Events is bounded,
// whatever the input.
//
// A message quotes the user's values so that the reader can find them, but
// a value may be a 1 MB regular expression: echoed whole, it would make the
// message, and the object's status, too large for the API server, which
// refuses the whole status write. So:
//
//   - a value a message quotes is cut to its first MaxQuoted bytes, with a
//     marker saying how long it was (report.Value), at the places that quote
//     values of unbounded length (paths, regular expressions, header and
//     query values, rewrites; hostnames and names are bounded by
//     validation);
//   - every condition message, HTTPProxy description and sub-condition is
//     cut to MaxConditionMessage bytes, metav1.Condition's limit, and
//     every Event message to MaxEventMessage bytes, events.k8s.io/v1's
//     limit for a note (quote.Cap), with a marker;
//   - an HTTPProxy lists at most MaxSubConditions errors and as many
//     warnings, the last saying how many more there were, so that a proxy
//     with thousands of bad routes still has a status the API server takes.

package graph

import "github.com/projectsesame/sesame/internal/quote"

// Limits of what Sesame writes.
const (
	// MaxQuoted is the most of one user value a message quotes.
	MaxQuoted = quote.MaxValue
	// MaxConditionMessage is the longest condition message, HTTPProxy
	// description or sub-condition message: the maxLength of
	// metav1.Condition's message.
	MaxConditionMessage = 32768
	// MaxEventMessage is the longest Event message: the events.k8s.io/v1
	// limit for a note, which a core/v1 Event's message becomes.
	MaxEventMessage = 1024
	// MaxSubConditions is the most errors, and the most warnings, one
	// HTTPProxy's status lists.
	MaxSubConditions = 100
)
