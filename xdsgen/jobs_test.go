package xdsgen

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestJobsReturnFailuresInTheOrderAdded(t *testing.T) {
	for _, small := range []bool{true, false} {
		var work jobs
		ran := 0
		work.addInfallible(func() {}, func() {})
		for k := range 40 {
			work.add(func() []error {
				if k%3 == 0 {
					return nil
				}
				return []error{fmt.Errorf("job %d", k), fmt.Errorf("job %d again", k)}
			})
		}
		work.addInfallible(func() { ran++ })
		var got []string
		for _, err := range work.run(context.Background(), small) {
			got = append(got, err.Error())
		}
		var want []string
		for k := range 40 {
			if k%3 != 0 {
				want = append(want, fmt.Sprintf("job %d", k), fmt.Sprintf("job %d again", k))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("small=%v: failures %q, want %q", small, got, want)
		}
		if ran != 1 {
			t.Errorf("small=%v: the last job ran %d times", small, ran)
		}
	}
	var none jobs
	if errs := none.run(context.Background(), false); errs != nil {
		t.Errorf("no jobs: %v", errors.Join(errs...))
	}
}
