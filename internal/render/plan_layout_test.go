package render

import (
	"reflect"
	"testing"
)

// TestMembersAreWhatProtoreflectSets holds the wrapper types read from
// generated code's list to what setting each member through protoreflect
// puts in the oneof, for every oneof member of every Envoy type linked in:
// the same type, and the same interface word.
func TestMembersAreWhatProtoreflectSets(t *testing.T) {
	members := 0
	for _, mt := range envoyTypes(t) {
		typ := reflect.TypeOf(mt.Zero().Interface())
		layout := structFields(typ)
		fds := mt.Descriptor().Fields()
		for i := range fds.Len() {
			fd := fds.Get(i)
			od := fd.ContainingOneof()
			if od == nil || od.IsSynthetic() {
				continue
			}
			index, ok := layout.byOneof[string(od.Name())]
			if !ok {
				t.Fatalf("%s: no struct field for oneof %s", mt.Descriptor().FullName(), od.Name())
			}
			if _, ok := layout.wrappers[fd.Number()]; !ok {
				t.Errorf("%s: generated code lists no wrapper for %s", mt.Descriptor().FullName(), fd.Name())
			}
			got, gotTab := layout.member(typ, fd, index)
			want, wantTab := wrapperOf(typ, fd, index)
			if got != want || gotTab != wantTab || got == nil {
				t.Errorf("%s.%s: wrapper %v (%p), protoreflect sets %v (%p)", mt.Descriptor().FullName(), fd.Name(), got, gotTab, want, wantTab)
			}
			members++
		}
	}
	if members < 300 {
		t.Fatalf("only %d oneof members checked: are the Envoy types linked in?", members)
	}
	t.Logf("%d oneof members", members)
}
