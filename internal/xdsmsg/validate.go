package xdsmsg

import "fmt"

// Validator is the method protoc-gen-validate generates on every Envoy
// message.
type Validator interface{ ValidateAll() error }

// Validated returns the failures of the messages' own rules
// (ValidateAll), each naming its resource.
func Validated[T Validator](kind string, messages []T, name func(T) string) []error {
	var errs []error
	for _, m := range messages {
		errs = AppendInvalid(errs, kind, name(m), m)
	}
	return errs
}

// AppendInvalid appends v's failures (ValidateAll), if any, to errs as one
// error naming the resource.
func AppendInvalid(errs []error, kind, name string, v Validator) []error {
	if err := v.ValidateAll(); err != nil {
		return append(errs, ResourceError(kind, name, err))
	}
	return errs
}

// ResourceError names the resource a failure is in: every failure
// resources.Set.Validate and xdsgen.GenerateAndValidate return says which
// resource to look at.
func ResourceError(kind, name string, err error) error {
	return fmt.Errorf("%s %q: %w", kind, name, err)
}
