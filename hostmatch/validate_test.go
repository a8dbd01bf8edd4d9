package hostmatch

import (
	"errors"
	"net"
	"regexp"
	"strings"
	"testing"
)

// crdHostname is the pattern of the Gateway API Hostname CRD
// (sigs.k8s.io/gateway-api apis/v1/shared_types.go). It admits dotted quads
// and labels longer than 63 bytes, which Validate rejects.
var crdHostname = regexp.MustCompile(`^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// crdPreciseHostname is the pattern of the PreciseHostname CRD.
var crdPreciseHostname = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

var (
	label63  = strings.Repeat("a", 63)
	label64  = strings.Repeat("b", 64)
	long253  = strings.Repeat(label63+".", 3) + strings.Repeat("c", 253-3*64) // 3*64 + 61 = 253 bytes
	long254  = long253 + "d"
	wild253  = "*." + long253[2:]
	long300x = strings.Repeat("X", 300) // too long and upper case: length is checked first
)

// validateTests is the table for Validate. offset and reason are checked
// only when reason is not empty; reason is a distinguishing substring of
// Error.Reason.
var validateTests = []struct {
	in     string
	offset int
	reason string
}{
	// Valid precise hostnames.
	{"example.com", 0, ""},
	{"a", 0, ""},
	{"foo.example.com", 0, ""},
	{"a-b.c-d.com", 0, ""},
	{"a--b.com", 0, ""},
	{"0.com", 0, ""},
	{"123", 0, ""},
	{"xn--bcher-kva.example", 0, ""},
	{"a.b.c.d.e.f.g", 0, ""},
	{label63 + ".com", 0, ""},
	{long253, 0, ""},
	// Numeric labels that net/netip does not read as an address are names.
	{"1.2.3", 0, ""},
	{"010.0.0.1", 0, ""},
	{"1.2.3.4.5", 0, ""},

	// Valid wildcards.
	{"*.example.com", 0, ""},
	{"*.a", 0, ""},
	{"*.foo.example.com", 0, ""},
	{"*.10.0.0.1", 0, ""},
	{wild253, 0, ""},

	// Whole-value problems: Offset -1.
	{"", -1, "empty hostname"},
	{long254, -1, "too long: 254 bytes, the limit is 253"},
	{long300x, -1, "too long: 300 bytes"},
	{"10.0.0.1", -1, "IP address"},
	{"0.0.0.0", -1, "IP address"},
	{"::1", -1, "IP address"},
	{"[::1]", -1, "IP address"},
	{"fe80::1%eth0", -1, "IP address"},
	{"2001:db8::1", -1, "IP address"},
	{"10.0.0.1:80", -1, "IP address"},
	{"[::1]:443", -1, "IP address"},

	// The lone wildcard.
	{"*", 0, `lone "*" is not a hostname (omit the hostname to match every host)`},

	// Label length.
	{label64 + ".com", 0, `label "` + label64 + `" is 64 bytes, the limit is 63`},
	{"a." + label64, 2, `label "` + label64 + `" is 64 bytes`},
	{"*." + label64 + ".com", 2, "is 64 bytes, the limit is 63"},
	{label64 + "X.com", 0, "is 65 bytes"}, // the length is found before the 'X'

	// Empty labels and dots.
	{".example.com", 0, "empty label (leading dot)"},
	{".", 0, "empty label (leading dot)"},
	{"foo..com", 4, `empty label ("..")`},
	{"*..com", 2, `empty label ("..")`},
	{"foo.com.", 7, `trailing dot (write "foo.com" without the final '.')`},
	{"a.", 1, "trailing dot"},

	// Ports.
	{"foo.com:8080", 7, `port ":8080" (a hostname has no port)`},
	{"*.foo.com:80", 9, `port ":80"`},

	// Case.
	{"Foo.com", 0, "upper-case letter 'F' (hostnames must be lower case)"},
	{"foo.Com", 4, "upper-case letter 'C'"},
	{"*.EXAMPLE.com", 2, "upper-case letter 'E'"},

	// Invalid characters.
	{"foo_bar.com", 3, `invalid character '_' (only a-z, 0-9, '-' and '.' are allowed)`},
	{"foo bar", 3, "invalid character ' '"},
	{"bücher.de", 1, "invalid character 'ü'"},
	{"foo\xff.com", 3, `invalid character "\xff"`},
	{"foo\x00", 3, `invalid character '\x00'`},
	{"foo.com:", 7, "invalid character ':'"},
	{"foo.com:http", 7, "invalid character ':'"},
	{"http://foo.com", 4, "invalid character ':'"},
	{"foo/bar", 3, "invalid character '/'"},
	{"[foo]", 0, "invalid character '['"},

	// Hyphens at label edges.
	{"-foo.com", 0, `label "-foo" starts with '-'`},
	{"foo.-bar.com", 4, `label "-bar" starts with '-'`},
	{"-", 0, `label "-" starts with '-'`},
	{"foo-.com", 3, `label "foo-" ends with '-'`},
	{"foo.com-", 7, `label "com-" ends with '-'`},
	{"a-.", 1, `label "a-" ends with '-'`}, // the hyphen is left of the trailing dot
	{"*.-a.com", 2, "starts with '-'"},

	// Misplaced wildcards.
	{"*foo.com", 0, `misplaced wildcard '*' (a wildcard must be the whole first label, as in "*.example.com")`},
	{"**.com", 0, "misplaced wildcard"},
	{"foo.*.com", 4, "misplaced wildcard"},
	{"foo*.com", 3, "misplaced wildcard"},
	{"*.*.com", 2, "misplaced wildcard"},
	{"foo.*", 4, "misplaced wildcard"},
	{"*.", 2, `wildcard "*." must be followed by a domain`},
}

func TestValidate(t *testing.T) {
	for _, tt := range validateTests {
		err := Validate(tt.in)
		if tt.reason == "" {
			if err != nil {
				t.Errorf("Validate(%q) = %v, want nil", tt.in, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Validate(%q) = %v, want *Error with %q", tt.in, err, tt.reason)
			continue
		}
		if e.Hostname != tt.in {
			t.Errorf("Validate(%q).Hostname = %q, want the input", tt.in, e.Hostname)
		}
		if e.Offset != tt.offset || !strings.Contains(e.Reason, tt.reason) {
			t.Errorf("Validate(%q) = offset %d, reason %q; want offset %d, reason containing %q",
				tt.in, e.Offset, e.Reason, tt.offset, tt.reason)
		}
	}
}

// TestValidateAgreesWithCRD checks the table against the CRD pattern: every
// valid hostname matches it, and every string it matches is rejected only
// for the reasons the CRD does not check (IP address, label length, total
// length). The fuzz test FuzzValidate checks the same on generated input.
func TestValidateAgreesWithCRD(t *testing.T) {
	for _, tt := range validateTests {
		if err := checkAgainstCRD(tt.in); err != "" {
			t.Errorf("%q: %s", tt.in, err)
		}
	}
}

// checkAgainstCRD returns what is wrong with Validate(s), judged by the CRD
// pattern and the rules it leaves out, or "" if nothing is.
func checkAgainstCRD(s string) string {
	err := Validate(s)
	crd := crdHostname.MatchString(s)
	extra := len(s) <= maxHostnameLen && !isIPForTest(s) && labelsFit(s)
	switch {
	case err == nil && !crd:
		return "valid, but does not match the CRD pattern"
	case err == nil && !extra:
		return "valid, but too long, an IP address or with a label over 63 bytes"
	case err != nil && crd && extra:
		return "matches the CRD pattern and the extra rules, but: " + err.Error()
	}
	return ""
}

// labelsFit reports whether every '.'-separated part of s is at most 63
// bytes; the CRD pattern does not check this.
func labelsFit(s string) bool {
	s = strings.TrimPrefix(s, "*.")
	for _, l := range strings.Split(s, ".") {
		if len(l) > maxLabelLen {
			return false
		}
	}
	return true
}

func TestValidatePrecise(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		reason string // "" for valid
	}{
		// Valid.
		{"example.com", 0, ""},
		{"a", 0, ""},
		{long253, 0, ""},
		// Wildcards are rejected.
		{"*.example.com", 0, "wildcard not allowed (a precise hostname is required here)"},
		{"*.a", 0, "wildcard not allowed"},
		// Validate's errors come first.
		{"*", 0, `lone "*"`},
		{"*.Foo", 2, "upper-case letter 'F'"},
		{"", -1, "empty hostname"},
		{"10.0.0.1", -1, "IP address"},
		{"foo.com.", 7, "trailing dot"},
	}
	for _, tt := range tests {
		err := ValidatePrecise(tt.in)
		if tt.reason == "" {
			if err != nil {
				t.Errorf("ValidatePrecise(%q) = %v, want nil", tt.in, err)
			}
			if !crdPreciseHostname.MatchString(tt.in) {
				t.Errorf("ValidatePrecise(%q) = nil, but the PreciseHostname pattern rejects it", tt.in)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Offset != tt.offset || !strings.Contains(e.Reason, tt.reason) {
			t.Errorf("ValidatePrecise(%q) = %v; want offset %d, reason containing %q", tt.in, err, tt.offset, tt.reason)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"Foo.com", `invalid hostname "Foo.com": at offset 0: upper-case letter 'F' (hostnames must be lower case)`},
		{"", `invalid hostname "": empty hostname`},
		{"10.0.0.1", `invalid hostname "10.0.0.1": IP address (a hostname must be a DNS name)`},
		{"foo..com", `invalid hostname "foo..com": at offset 4: empty label ("..")`},
		{"foo.com:80", `invalid hostname "foo.com:80": at offset 7: port ":80" (a hostname has no port)`},
	}
	for _, tt := range tests {
		if got := Validate(tt.in).Error(); got != tt.want {
			t.Errorf("Validate(%q).Error()\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// TestValidateDoesNotAllocate keeps the valid path free of allocations, so
// that validating every hostname of a large cluster on each rebuild is cheap.
func TestValidateDoesNotAllocate(t *testing.T) {
	for _, h := range []string{"foo.example.com", "*.example.com", "1.2.3", long253} {
		if n := testing.AllocsPerRun(100, func() { _ = Validate(h) }); n != 0 {
			t.Errorf("Validate(%q) allocates %v times, want 0", h, n)
		}
	}
}

// isIPForTest is the tests' own idea of an IP address, from package net
// rather than net/netip, for the strings the CRD pattern admits.
func isIPForTest(s string) bool {
	return net.ParseIP(s) != nil
}
