// Package yamlrules is how yaml.v2 (go.yaml.in/yaml/v2, the emitter behind
// sigs.k8s.io/yaml and kubectl's YAML) writes a string and orders the keys
// of a mapping: the style a string takes (Analyze, StyleOf), which strings
// it quotes because a YAML 1.1 reader would take them for something else
// (a number, a boolean, a timestamp), and its key order (KeyCompare). They
// are pure functions of the strings, written from yaml.v2's behaviour, and
// the YAML writer of internal/render, which writes by them, is held to
// yaml.v2 by TestYAMLWriterMatchesYAMLv2 and FuzzYAMLWriter.
package yamlrules
