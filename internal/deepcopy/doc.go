// Package deepcopy holds the two generic steps the hand-written DeepCopy
// methods of the API packages (apis/projectcontour/v1, apis/proxy/v1alpha1)
// are made of: copying what a pointer points to (Ptr) and each element of
// a slice (Each), each with the element type's own DeepCopyInto, so that a
// copy shares no memory with its original. nil stays nil.
package deepcopy
