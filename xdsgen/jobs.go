package xdsgen

import (
	"context"

	"github.com/projectsesame/sesame/internal/parallel"
)

// jobs are the parts of a Generate that run on every processor. Each job
// keeps its own failures, so that they come back in the order the jobs were
// added, whatever the schedule.
type jobs struct {
	funcs []func()
	errs  [][]error
}

// add adds a job; its failures are what do returns.
func (j *jobs) add(do func() []error) {
	k := len(j.funcs)
	j.errs = append(j.errs, nil)
	// j.errs is indexed when the job runs, after every job is added
	j.funcs = append(j.funcs, func() { j.errs[k] = do() })
}

// addInfallible adds jobs that cannot fail.
func (j *jobs) addInfallible(funcs ...func()) {
	for _, f := range funcs {
		j.add(func() []error { f(); return nil })
	}
}

// run runs the jobs, on every processor unless they are few (small: the
// work is too little to share), and returns their failures in job order.
// Once ctx is done, the jobs not yet started are skipped.
func (j *jobs) run(ctx context.Context, small bool) []error {
	for i, f := range j.funcs {
		j.funcs[i] = func() {
			if ctx.Err() == nil {
				f()
			}
		}
	}
	if small {
		for _, f := range j.funcs {
			f()
		}
	} else {
		parallel.Run(j.funcs)
	}
	var errs []error
	for _, e := range j.errs {
		errs = append(errs, e...)
	}
	return errs
}
