package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/projectsesame/sesame/internal/manifest"
)

// parseTranslate parses args as translate's flags, as the command does.
func parseTranslate(args ...string) (*translateOptions, error) {
	o := new(translateOptions)
	fs := pflag.NewFlagSet("translate", pflag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	o.addFlags(fs)
	return o, fs.Parse(args)
}

// TestTranslateFlagSpellings: every way kubectl users write a flag reaches
// the same option.
func TestTranslateFlagSpellings(t *testing.T) {
	tests := []struct {
		args []string
		got  func(*translateOptions) any
		want any
	}{
		// -o/--output, as kubectl takes it.
		{nil, func(o *translateOptions) any { return string(o.output) }, "yaml"},
		{[]string{"-o", "json"}, func(o *translateOptions) any { return string(o.output) }, "json"},
		{[]string{"-ojson"}, func(o *translateOptions) any { return string(o.output) }, "json"},
		{[]string{"-o=json"}, func(o *translateOptions) any { return string(o.output) }, "json"},
		{[]string{"--output", "json"}, func(o *translateOptions) any { return string(o.output) }, "json"},
		{[]string{"--output=json"}, func(o *translateOptions) any { return string(o.output) }, "json"},
		{[]string{"-ojson", "-o", "yaml"}, func(o *translateOptions) any { return string(o.output) }, "yaml"},

		// -f/--filename: repeatable and comma-separated.
		{[]string{"-f", "a.yaml"}, func(o *translateOptions) any { return o.filenames }, []string{"a.yaml"}},
		{[]string{"-fa.yaml"}, func(o *translateOptions) any { return o.filenames }, []string{"a.yaml"}},
		{[]string{"--filename", "a.yaml", "-f", "-"}, func(o *translateOptions) any { return o.filenames }, []string{"a.yaml", "-"}},
		{[]string{"--filename=a.yaml,dir"}, func(o *translateOptions) any { return o.filenames }, []string{"a.yaml", "dir"}},

		// -R/--recursive.
		{nil, func(o *translateOptions) any { return o.recursive }, false},
		{[]string{"-R"}, func(o *translateOptions) any { return o.recursive }, true},
		{[]string{"--recursive"}, func(o *translateOptions) any { return o.recursive }, true},
		{[]string{"--recursive=false"}, func(o *translateOptions) any { return o.recursive }, false},

		// -n/--namespace and --strict reach the decoder.
		{nil, func(o *translateOptions) any { return o.decoder().Namespace }, "default"},
		{[]string{"-n", "team"}, func(o *translateOptions) any { return o.decoder().Namespace }, "team"},
		{[]string{"-nteam"}, func(o *translateOptions) any { return o.decoder().Namespace }, "team"},
		{[]string{"--namespace=team"}, func(o *translateOptions) any { return o.decoder().Namespace }, "team"},
		{nil, func(o *translateOptions) any { return o.decoder().Strict }, false},
		{[]string{"--strict"}, func(o *translateOptions) any { return o.decoder().Strict }, true},

		// The flags that were there before keep their meaning.
		{nil, func(o *translateOptions) any { return o.decoder().Limits }, manifest.Limits{DocumentBytes: manifest.DefaultDocumentBytes, ValueBytes: manifest.DefaultValueBytes, Objects: manifest.DefaultObjects}},
		{[]string{"--max-objects=5", "--max-value-bytes", "7"}, func(o *translateOptions) any { return [2]int{o.limits.Objects, o.limits.ValueBytes} }, [2]int{5, 7}},
		{[]string{"--bind-port", "80=8080", "--bind-port=443=8443"}, func(o *translateOptions) any { return o.bindPorts.String() }, "443=8443,80=8080"},
		{[]string{"--root-namespaces", "a, b", "--root-namespaces=c"}, func(o *translateOptions) any { return []string(o.roots) }, []string{"a", "b", "c"}},
		{[]string{"--now=2026-01-01T00:00:00Z"}, func(o *translateOptions) any { return o.now.String() }, "2026-01-01T00:00:00Z"},
		{[]string{"--ingress-http-port", "80", "--ingress-https-port=443"}, func(o *translateOptions) any { return [2]port{o.httpPort, o.httpsPort} }, [2]port{80, 443}},
		{nil, func(o *translateOptions) any { return o.ucPort }, port(443)},
		{[]string{"--upstreamcluster-port", "6443"}, func(o *translateOptions) any { return o.ucPort }, port(6443)},
		{[]string{"--upstreamcluster-port=8443"}, func(o *translateOptions) any { return o.ucPort }, port(8443)},
		{[]string{"--all-gateways", "--gateway", "ns/gw", "--controller-name=x/y", "--ingress-class=public"},
			func(o *translateOptions) any { return []any{o.allGateways, o.gateway, o.controller, o.ingressClass} }, []any{true, "ns/gw", "x/y", "public"}},
	}
	for _, tt := range tests {
		o, err := parseTranslate(tt.args...)
		if err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		if got := tt.got(o); !equal(got, tt.want) {
			t.Errorf("%q: got %v, want %v", tt.args, got, tt.want)
		}
	}
}

func equal(a, b any) bool {
	if as, ok := a.([]string); ok {
		bs, ok := b.([]string)
		return ok && slices.Equal(as, bs)
	}
	if as, ok := a.([]any); ok {
		bs, ok := b.([]any)
		return ok && slices.Equal(as, bs)
	}
	return a == b
}

// TestOutputSpellings runs the command with each spelling of -o json.
func TestOutputSpellings(t *testing.T) {
	_, want, _ := call("", "translate", "-f", quickstart, "-o", "json", "--now", "2026-01-01T00:00:00Z")
	if !strings.HasPrefix(want, "{\n") {
		t.Fatalf("-o json: output %.40q", want)
	}
	for _, spelling := range [][]string{{"-ojson"}, {"-o=json"}, {"--output", "json"}, {"--output=json"}} {
		args := append([]string{"translate", "--filename", quickstart, "--now", "2026-01-01T00:00:00Z"}, spelling...)
		if code, out, errOut := call("", args...); code != 0 || out != want || errOut != quickstartSummary {
			t.Errorf("%q: exit %d, stderr %q, same output %v", spelling, code, errOut, out == want)
		}
	}
}

// TestUsageErrors: a bad flag, value or argument is one line naming the
// command, and one saying where its usage is; nothing on stdout; exit 2.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string // the first line; the second is the hint
	}{
		// Flags cobra and pflag refuse.
		{[]string{"translate", "--filenme", quickstart}, "sesame translate: unknown flag: --filenme"},
		{[]string{"translate", "-x"}, "sesame translate: unknown shorthand flag: 'x' in -x"},
		{[]string{"translate", "-f"}, "sesame translate: flag needs an argument: 'f' in -f"},
		{[]string{"translate", "-f", quickstart, "--output"}, "sesame translate: flag needs an argument: --output"},
		{[]string{"translate", "-f", quickstart, "-oxml"}, `sesame translate: invalid argument "xml" for "-o, --output" flag: want yaml or json`},
		{[]string{"translate", "-f", quickstart, "--max-objects=lots"}, `sesame translate: invalid argument "lots" for "--max-objects" flag: want a positive number`},
		{[]string{"translate", "-f", quickstart, "--all-gateways=maybe"}, `sesame translate: invalid argument "maybe" for "--all-gateways" flag: strconv.ParseBool: parsing "maybe": invalid syntax`},
		{[]string{"dispatch", "--usr", "alice"}, "sesame dispatch: unknown flag: --usr"},
		{[]string{"--verbose"}, "sesame: unknown flag: --verbose"},

		// What the command checks.
		{[]string{"translate"}, "sesame translate: no input: give at least one -f PATH"},
		{[]string{"translate", quickstart}, `sesame translate: unexpected argument "` + quickstart + `" (use -f PATH)`},
		{[]string{"dispatch", "-f", upstreamCluster, "--url", "api"}, `sesame dispatch: --url "api": want a path starting with /`},
		{[]string{"translate-all"}, `sesame: unknown command "translate-all"`},
		{[]string{"translat"}, `sesame: unknown command "translat" (did you mean translate?)`},
	}
	for _, tt := range tests {
		code, out, errOut := call("", tt.args...)
		cmd, _, _ := strings.Cut(tt.stderr, ":")
		want := tt.stderr + "\nRun '" + cmd + " --help' for usage.\n"
		if code != 2 || out != "" || errOut != want {
			t.Errorf("%q: exit %d, stdout %.40q, stderr\n%s\nwant exit 2 and\n%s", tt.args, code, out, errOut, want)
		}
	}
}

// TestSingleDashLongFlags: the single-dash long flags Go's flag package
// took are shorthands to pflag (-now is -n with the value "ow"); the
// command's error says so in its hint.
func TestSingleDashLongFlags(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"translate", "-f", quickstart, "-now", "2026-01-01T00:00:00Z"},
			"sesame translate: unexpected argument \"2026-01-01T00:00:00Z\" (use -f PATH)\nRun 'sesame translate --help' for usage; long flags take two dashes: --now.\n"},
		{[]string{"translate", "-f", quickstart, "-max-objects=3"},
			"sesame translate: unknown shorthand flag: 'm' in -max-objects=3\nRun 'sesame translate --help' for usage; long flags take two dashes: --max-objects.\n"},
		{[]string{"dispatch", "-f", upstreamCluster, "-url", "/healthz"},
			"sesame dispatch: unknown shorthand flag: 'u' in -url\nRun 'sesame dispatch --help' for usage; long flags take two dashes: --url.\n"},
	} {
		code, out, errOut := call("", tt.args...)
		if code != 2 || out != "" || errOut != tt.stderr {
			t.Errorf("%q: exit %d, stderr\n%s\nwant\n%s", tt.args, code, errOut, tt.stderr)
		}
	}
}

// TestRecursive: a directory is its files only, as kubectl reads it; -R
// adds its subdirectories', and without it a warning says they were not
// read.
func TestRecursive(t *testing.T) {
	data, err := os.ReadFile(quickstart)
	if err != nil {
		t.Fatal(err)
	}
	docs := strings.Split(string(data), "\n---\n")
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "gateway.yaml"), strings.Join(docs[:3], "\n---\n"))
	mustWrite(t, filepath.Join(dir, "deeper", "rest.json.yml"), strings.Join(docs[3:], "\n---\n"))
	mustWrite(t, filepath.Join(dir, "deeper", "deepest", "notes.txt"), "not a manifest")

	code, flat, errOut := call("", "translate", "-f", dir, "--now", "2026-01-01T00:00:00Z")
	wantWarning := "warning: " + dir + ": 1 subdirectory not read (-R reads them)\n"
	if code != 0 || !strings.HasPrefix(errOut, wantWarning) || !strings.Contains(errOut, "sesame translate: 3 objects read") {
		t.Errorf("without -R: exit %d, stderr %q", code, errOut)
	}
	_, whole, _ := call("", "translate", "-f", quickstart, "--now", "2026-01-01T00:00:00Z")
	for _, args := range [][]string{{"-R", "-f", dir}, {"--recursive", "--filename=" + dir}, {"-Rf", dir}} {
		code, out, errOut := call("", append([]string{"translate", "--now", "2026-01-01T00:00:00Z"}, args...)...)
		if code != 0 || out != whole || errOut != quickstartSummary {
			t.Errorf("%q: exit %d, stderr %q, same output as the file's %v", args, code, errOut, out == whole)
		}
	}
	if flat == whole {
		t.Errorf("without -R, the subdirectory's objects were read")
	}
}

// TestVersion: sesame version and sesame --version print the build's
// version, and versionText copes with what a build may lack.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errOut := call("", args...)
		if code != 0 || errOut != "" || out != version() || !strings.HasPrefix(out, "sesame ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if code, _, errOut := call("", "version", "extra"); code != 2 || !strings.Contains(errOut, `unknown command "extra" for "sesame version"`) {
		t.Errorf("version extra: exit %d, stderr %q", code, errOut)
	}

	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	const module = "github.com/projectsesame/sesame"
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"a checkout with changes", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: module, Version: "(devel)"},
			Settings: vcs("vcs", "git", "vcs.revision", "19e2353d", "vcs.time", "2026-11-26T07:00:04Z", "vcs.modified", "true")},
			"sesame (devel)\nmodule:   " + module + "\nrevision: 19e2353d (modified)\ntime:     2026-11-26T07:00:04Z\ngo:       go1.26.0\n"},
		{"a clean checkout", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: module, Version: "(devel)"},
			Settings: vcs("vcs.revision", "19e2353d", "vcs.modified", "false")},
			"sesame (devel)\nmodule:   " + module + "\nrevision: 19e2353d\ngo:       go1.26.0\n"},
		{"a checkout built with -buildvcs=false", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: module, Version: "(devel)"}},
			"sesame (devel)\nmodule:   " + module + "\nrevision: unknown (built without VCS information)\ngo:       go1.26.0\n"},
		{"go install @version", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: module, Version: "v0.3.0"}},
			"sesame v0.3.0\nmodule:   " + module + "\ngo:       go1.26.0\n"},
		{"a test binary", &debug.BuildInfo{GoVersion: "go1.26.0"},
			"sesame unknown\nrevision: unknown (built without VCS information)\ngo:       go1.26.0\n"},
		{"no build information", nil, "sesame unknown (the binary has no build information)\n"},
	}
	for _, tt := range tests {
		if got := versionText(tt.info, tt.info != nil); got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

// TestCompletion: cobra's completion command writes each shell's script,
// and -o completes to its two formats.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errOut := call("", "completion", shell)
		if code != 0 || errOut != "" || !strings.Contains(out, "sesame") || len(out) < 1000 {
			t.Errorf("completion %s: exit %d, stderr %q, %d bytes", shell, code, errOut, len(out))
		}
	}
	// What the scripts run: "sesame __complete ARGS... PARTIAL" prints the
	// candidates, then ":" and the directive (4: no file completion).
	for _, args := range [][]string{{"translate", "-o", ""}, {"translate", "--output", ""}, {"translate", "-f", quickstart, "-o", "j"}} {
		code, out, _ := call("", append([]string{"__complete"}, args...)...)
		if code != 0 || !strings.HasPrefix(out, "yaml\njson\n:4\n") {
			t.Errorf("__complete %q: exit %d, output %q", args, code, out)
		}
	}
	code, out, _ := call("", "__complete", "tr")
	if code != 0 || !strings.HasPrefix(out, "translate\t") {
		t.Errorf("__complete tr: exit %d, output %q", code, out)
	}
}
