package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

// GroupName is Contour's API group.
const GroupName = "projectcontour.io"

// GroupVersion is projectcontour.io/v1, the version HTTPProxy is served in.
var GroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}

// HTTPProxyKind is the kind of an HTTPProxy, as it appears in "kind".
const HTTPProxyKind = "HTTPProxy"
