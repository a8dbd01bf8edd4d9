package sesame_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// TestTranslateContextCanceled gives up a large translation: with a
// context already done, and with one canceled while it runs, from each of
// its stages in turn. TranslateContext returns context.Canceled and no
// Result; with a context never done, it translates as Translate does.
func TestTranslateContextCanceled(t *testing.T) {
	objects := gen.Objects(gen.Config{Routes: 2000, Seed: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := sesame.TranslateContext(ctx, objects, sesame.Options{}); !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("done context: %v, %v; want context.Canceled and no Result", res, err)
	}

	start := time.Now()
	full, err := sesame.TranslateContext(context.Background(), objects, sesame.Options{})
	if err != nil || full == nil {
		t.Fatalf("live context: %v", err)
	}
	whole := time.Since(start)
	// Cancel after a growing share of the whole translation's time, so
	// that each stage is reached by some cancellation: every one must
	// give context.Canceled, or finish when cancelled too late.
	canceled := 0
	for _, share := range []float64{0.05, 0.2, 0.4, 0.6, 0.8} {
		ctx, cancel := context.WithCancel(context.Background())
		var at time.Time
		timer := time.AfterFunc(time.Duration(share*float64(whole)), func() { at = time.Now(); cancel() })
		res, err := sesame.TranslateContext(ctx, objects, sesame.Options{})
		timer.Stop()
		cancel()
		switch {
		case errors.Is(err, context.Canceled) && res == nil:
			canceled++
			t.Logf("canceled after %.0f%% of %v: returned %v later", share*100, whole, time.Since(at))
		case err == nil && res != nil:
		default:
			t.Errorf("canceled after %.0f%% of a translation: %v, %v", share*100, res, err)
		}
	}
	if canceled == 0 {
		t.Errorf("no translation canceled midway was given up")
	}
}
