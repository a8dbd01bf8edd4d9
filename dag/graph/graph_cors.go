package graph

// CORSPolicy is how a Route answers cross-origin requests (the HTTPRoute
// CORS filter). To Envoy it is the CORS HTTP filter of the route's
// connection manager, configured per route with a CorsPolicy; the fields
// are the policy's, and the comments say what Envoy does with each.
//
// A CORS request is one with an Origin header; a preflight is a CORS
// request with method OPTIONS and an Access-Control-Request-Method header.
// Envoy answers a preflight itself, 200 without a body, and never forwards
// it (forward_not_matching_preflights is off, so a preflight from an origin
// that is not allowed is answered too, without Access-Control-Allow-Origin).
// Other CORS requests are forwarded as usual, and their responses get the
// headers below when the origin is allowed. Requests without Origin are
// untouched.
type CORSPolicy struct {
	// AllowOrigins are conditions on the Origin header (Name "origin"):
	// an origin that meets one of them is allowed, and
	// Access-Control-Allow-Origin echoes it (allow_origin_string_match;
	// Envoy never answers "*"). None allows no origin.
	AllowOrigins []StringMatch
	// AllowCredentials adds Access-Control-Allow-Credentials: true to
	// preflight answers and to the responses to allowed origins
	// (allow_credentials).
	AllowCredentials bool
	// AllowMethods are the methods a preflight's answer lists in
	// Access-Control-Allow-Methods (allow_methods). ["*"] answers with
	// the method the preflight asks for (Access-Control-Request-Method);
	// none sends no such header.
	AllowMethods []string
	// AllowHeaders are the header names a preflight's answer lists in
	// Access-Control-Allow-Headers (allow_headers). ["*"] answers with the
	// names the preflight asks for (Access-Control-Request-Headers); none
	// sends no such header.
	AllowHeaders []string
	// ExposeHeaders are the header names Access-Control-Expose-Headers
	// lists on the responses to allowed origins, preflight answers
	// included (expose_headers); "*" is sent as it is.
	ExposeHeaders []string
	// MaxAgeSeconds is Access-Control-Max-Age on preflight answers, how
	// long a browser may cache them (max_age); 0 sends none, unless
	// MaxAgeSet asks for "0" (do not cache).
	MaxAgeSeconds uint32
	MaxAgeSet     bool
	// AllowPrivateNetwork answers preflights that ask for private network
	// access with Access-Control-Allow-Private-Network: true
	// (allow_private_network_access).
	AllowPrivateNetwork bool
}
