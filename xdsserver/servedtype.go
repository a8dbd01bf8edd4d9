package xdsserver

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	"github.com/envoyproxy/go-control-plane/pkg/cache/types"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
)

// A group's resources of one type, as Set made them (servedType), and
// how a Set makes them from the last Set's: taken as they were, patched
// where a few messages changed, or made in full.

// servedType is the resources of one type as a snapshot holds them.
type servedType struct {
	items     []types.Resource // as given
	resources cachev3.Resources
	versions  map[string]string // by name
	entries   []entry           // by name
}

// entry is a resource's name and version.
type entry struct{ name, version string }

func compareEntries(a, b entry) int { return cmp.Compare(a.name, b.name) }

// newServedType versions list and indexes it by name, from last when it
// can (patchServedType).
func newServedType[T types.Resource](d *digester, typeURL string, list []T, last servedType) (servedType, error) {
	if made, ok, err := patchServedType(d, typeURL, list, last); ok || err != nil {
		return made, err
	}
	made := servedType{
		items:    make([]types.Resource, len(list)),
		versions: make(map[string]string, len(list)),
		entries:  make([]entry, len(list)),
	}
	for i, m := range list {
		v, err := d.version(m)
		if err != nil {
			return servedType{}, fmt.Errorf("%s %q: %w", typeURL, cachev3.GetResourceName(m), err)
		}
		name := cachev3.GetResourceName(m)
		if _, dup := made.versions[name]; dup {
			return servedType{}, fmt.Errorf("%s %q: given twice", typeURL, name)
		}
		made.items[i], made.entries[i], made.versions[name] = m, entry{name, v}, v
	}
	slices.SortFunc(made.entries, compareEntries)
	made.resources = cachev3.NewResources(made.version(), made.items)
	return made, nil
}

// patchServedType makes list's resources from last's when list is last's
// messages in their order but for a few (an eighth at most) changed,
// added or removed, as an Update changes some load assignments or adds a
// cluster: copies of last's maps and entries with those few edited. It
// says false when it cannot.
func patchServedType[T types.Resource](d *digester, typeURL string, list []T, last servedType) (servedType, bool, error) {
	if len(last.items) < 64 {
		return servedType{}, false, nil
	}
	removed, added, ok := diffItems(last.items, list, len(last.items)/8)
	if !ok {
		return servedType{}, false, nil
	}
	made := servedType{
		items:     make([]types.Resource, len(list)),
		versions:  maps.Clone(last.versions),
		resources: cachev3.Resources{Items: maps.Clone(last.resources.Items)},
	}
	for i, m := range list {
		made.items[i] = m
	}
	drop := make([]bool, len(last.entries)) // by place in last.entries
	for _, m := range removed {
		name := cachev3.GetResourceName(m)
		delete(made.versions, name)
		delete(made.resources.Items, name)
		if j, ok := slices.BinarySearchFunc(last.entries, entry{name: name}, compareEntries); ok {
			drop[j] = true
		}
	}
	put := make([]entry, len(added))
	for i, m := range added {
		v, err := d.version(m)
		if err != nil {
			return servedType{}, false, fmt.Errorf("%s %q: %w", typeURL, cachev3.GetResourceName(m), err)
		}
		name := cachev3.GetResourceName(m)
		if _, dup := made.versions[name]; dup {
			return servedType{}, false, nil // given twice: said in full
		}
		made.versions[name] = v
		made.resources.Items[name] = types.ResourceWithTTL{Resource: m}
		put[i] = entry{name, v}
	}
	slices.SortFunc(put, compareEntries)
	made.entries = make([]entry, 0, len(made.versions))
	for j, e := range last.entries { // last's kept, the added among them
		if drop[j] {
			continue
		}
		for len(put) > 0 && put[0].name < e.name {
			made.entries, put = append(made.entries, put[0]), put[1:]
		}
		made.entries = append(made.entries, e)
	}
	made.entries = append(made.entries, put...)
	made.resources.Version = made.version()
	d.patches++
	return made, true, nil
}

// diffItems is how next differs from last, in at most limit messages
// taken out or put in (a message replaced is both): those of last that
// are not at their place in next, and those of next that are not at their
// place in last, which, all taken out before any is put in, make last's
// resources next's. It looks up to lookAhead messages ahead for where the
// two lists meet again, which finds the few edits of a list that keeps
// its order; false when there are more than limit, or none.
func diffItems[T types.Resource](last []types.Resource, next []T, limit int) (removed, added []types.Resource, ok bool) {
	i, j, edits := 0, 0, 0
	for i < len(last) || j < len(next) {
		if i < len(last) && j < len(next) && last[i] == types.Resource(next[j]) {
			i, j = i+1, j+1
			continue
		}
		in, out := 1, 1 // put in before last[i], taken out before next[j]
		switch {
		case i == len(last):
			out = 0
		case j == len(next):
			in = 0
		default:
			if k := meet(len(next)-j, func(k int) bool { return last[i] == types.Resource(next[j+k]) }); k > 0 {
				in, out = k, 0
			} else if k := meet(len(last)-i, func(k int) bool { return last[i+k] == types.Resource(next[j]) }); k > 0 {
				in, out = 0, k
			}
		}
		if edits += max(in, out); edits > limit {
			return nil, nil, false
		}
		for _, m := range next[j : j+in] {
			added = append(added, m)
		}
		removed = append(removed, last[i:i+out]...)
		i, j = i+out, j+in
	}
	return removed, added, edits > 0
}

// lookAhead is how far diffItems looks for where two lists meet again.
const lookAhead = 8

// meet is the least k, from 1 to lookAhead and under n, at which at(k)
// holds, or 0.
func meet(n int, at func(k int) bool) int {
	for k := 1; k < min(n, lookAhead+1); k++ {
		if at(k) {
			return k
		}
	}
	return 0
}

// version is the type's: a digest of its names and versions in name
// order, each followed by a 0.
func (t *servedType) version() string {
	size := 0
	for _, e := range t.entries {
		size += len(e.name) + len(e.version) + 2
	}
	text := make([]byte, 0, size)
	for _, e := range t.entries {
		text = append(append(append(append(text, e.name...), 0), e.version...), 0)
	}
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:8])
}
