// Package parallel spreads independent work over the processors, for the
// translation steps whose items do not depend on one another. Results must
// go to places chosen by index alone, so that the output never depends on
// the schedule.
package parallel
