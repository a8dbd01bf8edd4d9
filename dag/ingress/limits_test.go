package ingress

import (
	"strings"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
)

// TestIngressPathLimits: a path no request can carry (CR, LF or NUL) is
// refused with the message header filters give, and an
// ImplementationSpecific path whose regular expression is longer than
// re2.MaxLength is refused before it is parsed, naming the limit without
// quoting the expression, as for every source (dag's
// TestMatchValuesWithControlCharacters and TestRegexLength).
func TestIngressPathLimits(t *testing.T) {
	prefix, implementationSpecific := networkingv1.PathTypePrefix, networkingv1.PathTypeImplementationSpecific
	if _, p := PathMatch("/a\nb", &prefix); !strings.Contains(p, "holds the control character") {
		t.Errorf("a Prefix path with LF: problem = %q, want the control character named", p)
	}
	long := "/" + strings.Repeat("a", 1<<20) + ".*" // 1 MiB, a valid expression
	if _, p := PathMatch(long, &implementationSpecific); !strings.Contains(p, "limit of 4096 bytes for regular expressions") || len(p) > 1000 {
		t.Errorf("a 1 MiB path: problem = %.300q, want the regex length limit named, and no quoted expression", p)
	}
}
