// Package report is how the builders say things: messages bounded in
// size whatever the input (a quoted user value shows at most
// graph.MaxQuoted bytes, Value; names and regular expression errors alike),
// the conditions of one object written at once (Conditions), and the
// Events of one translation, each kept once and ordered by object (Events).
// It holds no translation rule; every source package of dag, and the
// root package for UpstreamCluster status, may use it.
package report
