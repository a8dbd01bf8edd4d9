package sesame_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// TestHash: the same objects in any order give the same Hash; other
// objects give another.
func TestHash(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 3, Routes: 50})
	res, err := sesame.Translate(objects, sesame.Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	want := res.Hash()
	if len(want) != 16 {
		t.Fatalf("Hash() = %q, want 16 hex digits", want)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	shuffled := append([]runtime.Object(nil), objects...)
	rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
	again, err := sesame.Translate(shuffled, sesame.Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Hash(); got != want {
		t.Errorf("shuffled: Hash() = %s, want %s", got, want)
	}
	other, err := sesame.Translate(gen.Objects(gen.Config{Seed: 4, Routes: 50}), sesame.Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	if other.Hash() == want {
		t.Errorf("other objects give the same Hash %s", want)
	}
}

// TestHashOfEveryGolden: every golden input translated again and again
// gives one Hash. Maps inside packed messages (an RBAC filter's policies,
// a JWT filter's providers, ext_authz context extensions) are written in
// their deterministic order; in Go's map order they gave a new Hash on
// about every other run.
func TestHashOfEveryGolden(t *testing.T) {
	files := goldenFiles(t)
	for _, file := range files {
		c := loadCase(t, file)
		want := c.result.Hash()
		for range 8 {
			res, err := sesame.Translate(c.objects, c.options)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Hash(); got != want {
				t.Fatalf("%s: Hash() = %s, then %s", filepath.Base(file), want, got)
			}
		}
	}
}
