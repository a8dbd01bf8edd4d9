package report

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/quote"
)

// Value is a value from the user's objects, formatted for a message
// (quote.Value): %q quotes at most graph.MaxQuoted bytes of it.
type Value = quote.Value

// RefName is an object's namespace/name as a message names it: a name a
// reference gives may be any length (the API server caps names at 253
// bytes; the library takes typed objects that no API server checked).
func RefName(n types.NamespacedName) Value { return Value(n.String()) }

// RegexError describes a regular expression's parse error with at most
// graph.MaxQuoted bytes of the part it names: regexp/syntax's own text quotes
// that part whole, which may be the whole expression.
func RegexError(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("%s: %q", se.Code, Value(se.Expr))
	}
	return fmt.Sprintf("%v", Value(err.Error()))
}

// TrimDot drops a final period, so that a problem can be continued.
func TrimDot(s string) string {
	if len(s) > 0 && s[len(s)-1] == '.' {
		return s[:len(s)-1]
	}
	return s
}

// DescribeHost names a host in a message.
func DescribeHost(host string) string {
	if host == "" {
		return "any host"
	}
	return fmt.Sprintf("host %q", Value(host))
}

// DescribeMatch names a path match in a message: `Prefix "/api"`.
func DescribeMatch(p graph.PathMatch) string {
	switch p.Type {
	case graph.PathStringPrefix:
		return fmt.Sprintf("string prefix %q", Value(p.Value))
	case graph.PathPrefix:
		return fmt.Sprintf("Prefix %q", Value(p.Value))
	}
	return fmt.Sprintf("%s %q", p.Type, Value(p.Value))
}

// MostListed is how many names a warning lists before "and N more".
const MostListed = 10

// Names lists names for a message, "a, b, c", the first MostListed of
// them, then "and N more": a warning about many objects stays one line.
// A name without a namespace is written as its name alone.
func Names(names []types.NamespacedName) string {
	var s []string
	for i, n := range names {
		if i == MostListed {
			s = append(s, fmt.Sprintf("and %d more", len(names)-MostListed))
			break
		}
		if n.Namespace == "" {
			s = append(s, n.Name)
		} else {
			s = append(s, n.String())
		}
	}
	return strings.Join(s, ", ")
}
