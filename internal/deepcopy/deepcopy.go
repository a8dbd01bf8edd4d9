package deepcopy

// Ptr returns a new copy of *in made by into, or nil for nil.
func Ptr[T any](in *T, into func(in, out *T)) *T {
	if in == nil {
		return nil
	}
	out := new(T)
	into(in, out)
	return out
}

// Each returns a new slice with a copy of each element made by into; nil
// stays nil.
func Each[T any](in []T, into func(in, out *T)) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i := range in {
		into(&in[i], &out[i])
	}
	return out
}
