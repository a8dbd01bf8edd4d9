package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/projectsesame/sesame/internal/render"
)

// The flag values below check what they are given as the flags are parsed,
// so that a bad value is reported by pflag, naming the flag, like a value
// of the wrong type: `invalid argument "xml" for "-o, --output" flag: want
// yaml or json`.
var (
	_ pflag.Value = (*outputFormat)(nil)
	_ pflag.Value = (*timestamp)(nil)
	_ pflag.Value = portMap(nil)
	_ pflag.Value = (*namespaceList)(nil)
	_ pflag.Value = (*port)(nil)
	_ pflag.Value = (*positive)(nil)
)

// outputFormat is -o/--output: yaml or json.
type outputFormat render.Format

// outputFormats are the values of -o, for its completion too.
var outputFormats = []string{string(render.YAML), string(render.JSON)}

func (o *outputFormat) String() string { return string(*o) }
func (o *outputFormat) Type() string   { return "format" }

func (o *outputFormat) Set(v string) error {
	if !slices.Contains(outputFormats, v) {
		return fmt.Errorf("want %s", strings.Join(outputFormats, " or "))
	}
	*o = outputFormat(v)
	return nil
}

// timestamp is --now: an RFC 3339 time, or the zero time when unset.
type timestamp time.Time

func (t *timestamp) String() string {
	if time.Time(*t).IsZero() {
		return ""
	}
	return time.Time(*t).Format(time.RFC3339)
}

func (t *timestamp) Type() string { return "time" }

func (t *timestamp) Set(v string) error {
	at, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return fmt.Errorf("want an RFC 3339 time, like 2026-01-01T00:00:00Z")
	}
	*t = timestamp(at)
	return nil
}

// portMap collects repeated --bind-port GATEWAY=ENVOY flags.
type portMap map[int32]int32

func (m portMap) String() string {
	var parts []string
	for from, to := range m {
		parts = append(parts, fmt.Sprintf("%d=%d", from, to))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

func (m portMap) Type() string { return "portMap" }

func (m portMap) Set(v string) error {
	from, to, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want GATEWAY=ENVOY, like 80=8080")
	}
	f, err1 := strconv.ParseUint(from, 10, 16)
	t, err2 := strconv.ParseUint(to, 10, 16)
	if err1 != nil || err2 != nil || f == 0 || t == 0 {
		return fmt.Errorf("ports must be numbers in 1-65535")
	}
	m[int32(f)] = int32(t)
	return nil
}

// namespaceList collects --root-namespaces, comma-separated and repeatable.
type namespaceList []string

func (n *namespaceList) String() string { return strings.Join(*n, ",") }
func (n *namespaceList) Type() string   { return "strings" }

func (n *namespaceList) Set(v string) error {
	for ns := range strings.SplitSeq(v, ",") {
		if ns = strings.TrimSpace(ns); ns != "" {
			*n = append(*n, ns)
		}
	}
	return nil
}

// port is a port flag: 1-65535, or 0 for the default.
type port int32

func (p *port) String() string { return strconv.Itoa(int(*p)) }
func (p *port) Type() string   { return "port" }

func (p *port) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 16)
	if err != nil || n == 0 {
		return fmt.Errorf("ports must be numbers in 1-65535")
	}
	*p = port(n)
	return nil
}

// positive is a limit's flag: a number above 0.
type positive int

func (p *positive) String() string { return strconv.Itoa(int(*p)) }
func (p *positive) Type() string   { return "int" }

func (p *positive) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return fmt.Errorf("want a positive number")
	}
	*p = positive(n)
	return nil
}

// outputShape is --to: the shape of the xds section.
type outputShape string

// The shapes of the xds section.
const (
	shapeSesame     outputShape = ""
	shapeConfigDump outputShape = "config-dump"
)

func (s *outputShape) String() string {
	if *s == shapeSesame {
		return "sesame"
	}
	return string(*s)
}

func (s *outputShape) Set(v string) error {
	switch v {
	case "sesame":
		*s = shapeSesame
	case string(shapeConfigDump):
		*s = shapeConfigDump
	default:
		return fmt.Errorf("want sesame or config-dump")
	}
	return nil
}

func (s *outputShape) Type() string { return "shape" }
