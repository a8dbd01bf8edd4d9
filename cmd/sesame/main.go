// Command sesame shows what Kubernetes gateway objects become in Envoy.
//
//	sesame translate -f PATH [-f PATH ...] [-o yaml|json]
//
// prints the Envoy resources and the status of every object; see
// `sesame translate --help`.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `sesame turns Kubernetes gateway objects into Envoy configuration.

Usage:
  sesame translate -f PATH [-f PATH ...] [flags]   print the Envoy resources and object status
  sesame help [COMMAND]                           show help

Run 'sesame translate --help' for the flags of translate.
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
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[1] == "translate" {
			return translate([]string{"--help"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "sesame: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}
