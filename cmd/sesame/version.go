package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version and the source revision sesame was built from",
		Long: `Prints the module version of sesame and, when the binary was built in a
Git checkout, the revision, its time and whether the checkout had changes.
A binary built by 'go install github.com/projectsesame/sesame/cmd/sesame@vX.Y.Z'
has the version and no revision; one built in a checkout has a
pseudo-version made from the revision ("+dirty" when modified), or
"(devel)" when the build recorded no revision (go run, -buildvcs=false).`,
		Args: cobra.NoArgs,
		Run: func(*cobra.Command, []string) {
			fmt.Fprint(stdout, version())
		},
	}
}

// version describes the running binary, from its build information.
func version() string {
	info, ok := debug.ReadBuildInfo()
	return versionText(info, ok)
}

// versionText describes a binary from its build information: the module
// version (a pseudo-version, or "(devel)", when built in a checkout;
// "unknown" when there is none, as in tests), then the VCS revision, time and modified flag when
// the build recorded them, and the Go version. Every line ends in a
// newline.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "sesame unknown (the binary has no build information)\n"
	}
	v := info.Main.Version
	if v == "" {
		v = "unknown"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "sesame %s\n", v)
	if info.Main.Path != "" {
		fmt.Fprintf(&b, "module:   %s\n", info.Main.Path)
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	switch rev := settings["vcs.revision"]; {
	case rev != "":
		if settings["vcs.modified"] == "true" {
			rev += " (modified)"
		}
		fmt.Fprintf(&b, "revision: %s\n", rev)
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, "time:     %s\n", t)
		}
	case v == "(devel)" || v == "unknown":
		// A release has its version; a build of a checkout without
		// revision was made with -buildvcs=false, or outside Git.
		b.WriteString("revision: unknown (built without VCS information)\n")
	}
	if info.GoVersion != "" {
		fmt.Fprintf(&b, "go:       %s\n", info.GoVersion)
	}
	return b.String()
}
