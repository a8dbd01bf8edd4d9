package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `sesame turns Kubernetes gateway objects into Envoy configuration.

Usage:
  sesame translate -f PATH [-f PATH ...] [flags]   print the Envoy resources and object status
  sesame dispatch -f UPSTREAMCLUSTER [flags]       show which dispatch policy a request meets
  sesame help [COMMAND]                           show help

Run 'sesame translate --help' or 'sesame dispatch --help' for their flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code, so that tests
// can call it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "translate":
		return translate(args[1:], stdin, stdout, stderr)
	case "dispatch":
		return dispatchCmd(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[1] == "translate" {
			return translate([]string{"--help"}, stdin, stdout, stderr)
		}
		if len(args) > 1 && args[1] == "dispatch" {
			return dispatchCmd([]string{"--help"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "sesame: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

// newFlagSet makes the flag set of a subcommand, reporting bad flags and
// their usage on stderr; parseFlags sends --help to stdout instead.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; when it returns done, the command should exit with
// code: 0 after --help, 2 after a bad flag (already reported).
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) (code int, done bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		return 0, true
	}
	return 2, true
}
