// Command genyaml writes package gen's objects as YAML documents: the
// generated input of scripts/bench-cli.
package main
