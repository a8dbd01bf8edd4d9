package xdsgen

import (
	"fmt"
	"slices"
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	luav3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/lua/v3"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// Cookie rewriting (graph.CookieRewrite): Envoy has no filter that
// rewrites Set-Cookie attributes, so, as Contour does, its Lua filter
// runs a short script that Sesame writes for each set of rewrites, given
// in the typed_per_filter_config of a route (the route's rewrites) or of a
// weighted cluster (a backend's, with the route's for the cookies the
// backend does not rewrite, as Envoy runs the most specific configuration
// only: a service's policy for a cookie wins over its route's). The
// connection manager gets the Lua
// filter, without code of its own, when a route or backend of its routes
// rewrites cookies. The script, for each Set-Cookie header of a response:
//
//	"X-Session=abc; Path=/; Secure; HttpOnly"  with {X-Session: Path /admin, Secure false, SameSite Lax}
//	    -> "X-Session=abc; HttpOnly; Path=/admin; SameSite=Lax"
//
// keeps the name=value pair and the attributes it does not rewrite, in
// order, then appends the rewritten ones; attribute names compare
// case-insensitively. Cookies it has no rewrite for are left as they are.

// luaFilter names the Lua filter and its per-route configuration.
const luaFilter = "envoy.filters.http.lua"

// cookieScript is the Lua that rewrites cookies as rewrites say.
func cookieScript(rewrites []graph.CookieRewrite) string {
	var b strings.Builder
	b.WriteString("-- Set-Cookie rewrites written by Sesame (graph.CookieRewrite).\nlocal rewrites = {\n")
	for _, c := range rewrites {
		fmt.Fprintf(&b, "  [%s] = {", luaString(c.Name))
		if c.Path != "" {
			fmt.Fprintf(&b, "path = %s, ", luaString(c.Path))
		}
		if c.Domain != "" {
			fmt.Fprintf(&b, "domain = %s, ", luaString(c.Domain))
		}
		if c.Secure != nil {
			fmt.Fprintf(&b, "secure = %t, ", *c.Secure)
		}
		if c.SameSite != "" {
			fmt.Fprintf(&b, "samesite = %s, ", luaString(c.SameSite))
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	b.WriteString(cookieLua)
	return b.String()
}

// cookieLua rewrites the Set-Cookie headers of a response as the table
// rewrites, defined before it, says.
const cookieLua = `
local function trim(s)
  return (string.gsub(s, "^%s*(.-)%s*$", "%1"))
end

local function rewrite(value)
  local parts = {}
  for part in string.gmatch(value, "[^;]+") do
    parts[#parts + 1] = trim(part)
  end
  if #parts == 0 then
    return value
  end
  local name = trim(string.match(parts[1], "^([^=]*)") or "")
  local r = rewrites[name]
  if r == nil then
    return value
  end
  local out = {parts[1]}
  for i = 2, #parts do
    local attr = string.lower(trim(string.match(parts[i], "^([^=]*)") or ""))
    local replaced = (attr == "path" and r.path ~= nil) or (attr == "domain" and r.domain ~= nil)
      or (attr == "secure" and r.secure ~= nil) or (attr == "samesite" and r.samesite ~= nil)
    if not replaced then
      out[#out + 1] = parts[i]
    end
  end
  if r.path ~= nil then out[#out + 1] = "Path=" .. r.path end
  if r.domain ~= nil then out[#out + 1] = "Domain=" .. r.domain end
  if r.secure == true then out[#out + 1] = "Secure" end
  if r.samesite ~= nil then out[#out + 1] = "SameSite=" .. r.samesite end
  return table.concat(out, "; ")
end

function envoy_on_response(response_handle)
  local headers = response_handle:headers()
  local n = headers:getNumValues("set-cookie")
  if n == 0 then
    return
  end
  local values = {}
  for i = 0, n - 1 do
    values[#values + 1] = rewrite(headers:getAtIndex("set-cookie", i))
  end
  headers:remove("set-cookie")
  for _, v in ipairs(values) do
    headers:add("set-cookie", v)
  end
end
`

// luaString writes s as a Lua string literal: printable ASCII as it is,
// every other byte, quote and backslash escaped as a decimal escape.
func luaString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			fmt.Fprintf(&b, "\\%03d", c)
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// cookieConfig is the per-route configuration of the Lua filter that
// applies rewrites.
func cookieConfig(rewrites []graph.CookieRewrite) *anypb.Any {
	return xdsmsg.MustAny(&luav3.LuaPerRoute{Override: &luav3.LuaPerRoute_SourceCode{
		SourceCode: &corev3.DataSource{Specifier: &corev3.DataSource_InlineString{InlineString: cookieScript(rewrites)}},
	}})
}

// rewritesCookies reports whether a route, or a backend of it, rewrites
// cookies.
func rewritesCookies(r *graph.Route) bool {
	if r.Filters != nil && len(r.Filters.CookieRewrites) > 0 {
		return true
	}
	for _, b := range r.Backends {
		if b.Headers != nil && len(b.Headers.CookieRewrites) > 0 {
			return true
		}
	}
	return false
}

// mergeCookieRewrites is a backend's rewrites with its route's for the
// cookies the backend has none for: Envoy runs the most specific
// configuration only, the backend's, which must then do the route's too.
func mergeCookieRewrites(route, backend []graph.CookieRewrite) []graph.CookieRewrite {
	out := slices.Clone(backend)
	for _, r := range route {
		if !slices.ContainsFunc(backend, func(b graph.CookieRewrite) bool { return b.Name == r.Name }) {
			out = append(out, r)
		}
	}
	return out
}
