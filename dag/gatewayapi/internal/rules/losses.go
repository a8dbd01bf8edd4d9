package rules

import (
	"slices"
	"strings"

	"github.com/projectsesame/sesame/internal/strpack"
)

// Loss is one match of a route that an identical match of a route that
// comes first took on a hostname: an older route's, or, at the same age,
// one first by namespace/name (byName). It is formatted only when the
// status is written: with many routes, losses are many and most repeat.
type Loss struct {
	Rule, Match int
	Host        string
	Winner      *Route
	ByName      bool
}

func (l Loss) String() string {
	var b strings.Builder
	l.appendTo(&b)
	return b.String()
}

// The fixed parts of a loss's description.
const (
	lossRule      = "spec.rules["
	lossMatch     = "].matches["
	lossOn        = "] on "
	lossAnyHost   = "any host"
	lossWinner    = ": "
	lossEnd       = " is older and has the same match, so its rule serves those requests."
	lossEndByName = " has the same match, was created at the same time and comes first by namespace/name, so its rule serves those requests."
	lossFixedLen  = len(lossRule) + len(lossMatch) + len(lossOn) + len(lossWinner) + len(" /")
)

// end is the end of the loss's description, which says why the winner
// comes first.
func (l Loss) end() string {
	if l.ByName {
		return lossEndByName
	}
	return lossEnd
}

// DescribedLen is the length of the loss's description, so that a
// Builder can be sized once, and the message, which status keeps, holds
// no spare bytes.
func (l Loss) DescribedLen() int {
	w := &l.Winner.Source
	host := len(l.Host)
	if host == 0 {
		host = len(lossAnyHost)
	}
	return lossFixedLen + len(l.end()) + strpack.IntLen(l.Rule) + strpack.IntLen(l.Match) + host + len(w.Kind) + len(w.Namespace) + len(w.Name)
}

// appendTo writes the loss to b, as String says it. It is written without
// fmt: with many routes, losses are many.
func (l Loss) appendTo(b *strings.Builder) {
	host := l.Host
	if host == "" {
		host = lossAnyHost
	}
	b.WriteString(lossRule)
	strpack.WriteInt(b, l.Rule)
	b.WriteString(lossMatch)
	strpack.WriteInt(b, l.Match)
	b.WriteString(lossOn)
	b.WriteString(host)
	b.WriteString(lossWinner)
	b.WriteString(l.Winner.Source.Kind)
	b.WriteByte(' ')
	b.WriteString(l.Winner.Source.Namespace)
	b.WriteByte('/')
	b.WriteString(l.Winner.Source.Name)
	b.WriteString(l.end())
}

// DescribeLosses is the losses, each as String says it, separated by
// spaces.
func DescribeLosses(losses []Loss) string {
	n := len(losses)
	for _, l := range losses {
		n += l.DescribedLen()
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range losses {
		if i > 0 {
			b.WriteByte(' ')
		}
		l.appendTo(&b)
	}
	return b.String()
}

// AnyKept reports whether any of the compiled routes is left in a hostname
// group of a listener once conflicts are settled (Route.kept). Fall-through
// copies into other virtual hosts add nothing a group does not have.
func (c *Compiled) AnyKept() bool {
	if c == nil {
		return false
	}
	return slices.ContainsFunc(c.Routes, func(r *Route) bool { return r.Kept })
}
