package strpack

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func pack(words []string, length func(i int) int) []string {
	out := make([]string, len(words))
	Strings(len(words), length, func(b *strings.Builder, i int) { b.WriteString(words[i]) }, func(i int, s string) { out[i] = s })
	return out
}

func TestStringsCutsEachStringOut(t *testing.T) {
	words := []string{"", "a", "", strings.Repeat("long", 40), "b"}
	for name, length := range map[string]func(i int) int{
		"exact":     func(i int) int { return len(words[i]) },
		"too short": func(i int) int { return len(words[i]) / 2 },
		"too long":  func(i int) int { return len(words[i]) + 1 },
	} {
		if got := pack(words, length); strings.Join(got, "|") != strings.Join(words, "|") {
			t.Errorf("%s lengths: got %q, want %q", name, got, words)
		}
	}
	if got := pack(nil, nil); len(got) != 0 {
		t.Errorf("no strings: got %q", got)
	}
}

func TestStringsShareOneAllocation(t *testing.T) {
	words := []string{"alpha", "beta", "gamma", "delta"}
	out := make([]string, len(words))
	length := func(i int) int { return len(words[i]) }
	write := func(b *strings.Builder, i int) { b.WriteString(words[i]) }
	set := func(i int, s string) { out[i] = s }
	// the buffer, and the builder, which write may keep
	if allocs := testing.AllocsPerRun(100, func() { Strings(len(words), length, write, set) }); allocs != 2 {
		t.Errorf("%v allocations for %d strings, want 2", allocs, len(words))
	}
}

func TestIntLenIsTheLengthWriteIntWrites(t *testing.T) {
	for _, v := range []int{0, 1, 9, 10, 99, 100, 65535, -1, -9, -10, -100, math.MaxInt, math.MinInt} {
		var b strings.Builder
		WriteInt(&b, v)
		if b.String() != strconv.Itoa(v) {
			t.Errorf("WriteInt(%d) wrote %q", v, b.String())
		}
		if got, want := IntLen(v), len(strconv.Itoa(v)); got != want {
			t.Errorf("IntLen(%d) = %d, want %d", v, got, want)
		}
	}
}
