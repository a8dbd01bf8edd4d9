package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes, the same for every command.
const (
	exitOK      = 0
	exitFailure = 1 // a path cannot be read, or the translation failed
	exitUsage   = 2 // bad flags or arguments
	exitSkipped = 3 // some documents were skipped: the output translates only the rest
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code, so that tests
// can call it.
//
// Cobra prints nothing of its own on an error (SilenceErrors, SilenceUsage):
// run writes one line, "sesame translate: unknown flag: --filenme", and for
// a usage error a second one that says where the usage is, as kubectl does,
// rather than the whole usage.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext is run with a context, which ends sesame serve.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin, stdout, stderr)
	if args == nil {
		args = []string{} // cobra reads os.Args for nil
	}
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	code := exitUsage // cobra's own errors: flags, arguments, commands
	var exit *exitError
	if errors.As(err, &exit) {
		code, err = exit.code, exit.err
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
	}
	if code == exitUsage && err != nil {
		fmt.Fprintf(stderr, "Run '%s --help' for usage%s.\n", cmd.CommandPath(), singleDashHint(cmd, args))
	}
	return code
}

// singleDashHint points out the first argument that is a long flag of cmd
// written with one dash, as Go's flag package takes them and pflag does
// not: "; long flags take two dashes: --now".
func singleDashHint(cmd *cobra.Command, args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, ok := strings.CutPrefix(a, "-")
		if !ok || len(name) < 2 || name[0] == '-' {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		if cmd.Flags().Lookup(name) != nil {
			return "; long flags take two dashes: --" + name
		}
	}
	return ""
}

// exitError ends a command with an exit code. run prints err, when there
// is one, after the command's path; a nil err means that the command has
// said everything already.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit code %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErrorf is a bad flag value or argument that the flags' parser could
// not see: exit code 2, with the hint to read the usage.
func usageErrorf(format string, args ...any) error {
	return &exitError{exitUsage, fmt.Errorf(format, args...)}
}

// failure is an input that cannot be read, or a translation that failed:
// exit code 1.
func failure(err error) error {
	return &exitError{exitFailure, err}
}

const rootLong = `sesame turns Kubernetes gateway objects into Envoy configuration.

  sesame translate -f PATH    print the Envoy resources and the status of the objects in PATH
  sesame serve -f PATH        serve them to Envoy over xDS, translated again as PATH changes
  sesame explain -f PATH REQ  say which object serves a request, and why the others do not
  sesame dispatch -f FILE     show which dispatch policy of an UpstreamCluster a request meets

Flags follow kubectl's conventions (-f/--filename, -o/--output, -n/--namespace,
-R/--recursive); 'sesame completion bash' (or zsh, fish, powershell) prints a
shell completion script.`

// newRootCmd builds the command tree. Each run builds its own, so that no
// flag value outlives a run.
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "sesame",
		Short:         "Turn Kubernetes gateway objects into Envoy configuration",
		Long:          rootLong,
		Args:          noCommand,
		SilenceErrors: true,
		SilenceUsage:  true,
		// A bare "sesame" is a usage error: the usage goes to stderr, with
		// exit code 2.
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.SetOut(stderr)
			_ = cmd.Usage()
			return &exitError{code: exitUsage}
		},
		Version:                    version(),
		SuggestionsMinimumDistance: 2,
	}
	root.Flags().Bool("version", false, "print the version, as 'sesame version' does")
	root.SetVersionTemplate("{{.Version}}")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newTranslateCmd(stdin, stdout, stderr), newServeCmd(stdout, stderr), newProvisionCmd(stdin, stdout, stderr), newDispatchCmd(stdin, stdout, stderr), newExplainCmd(stdin, stdout, stderr), newVersionCmd(stdout))
	return root
}

// noCommand refuses arguments to the bare command: they are commands that
// do not exist. Cobra's own check would add its suggestions on lines of
// their own; this one keeps them on the error's line.
func noCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q", args[0])
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, " or "))
	}
	return errors.New(msg)
}
