package xdsgen

import (
	"slices"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/projectsesame/sesame/dag/graph"
)

// runCookieScript runs the script cookieScript writes for rewrites, as
// Envoy's Lua filter would, on a response with the Set-Cookie values
// given, and returns the values it leaves. gopher-lua is Lua 5.1, the
// language of the LuaJIT that Envoy embeds; the response handle is a
// stand-in with the methods the script calls (headers(), getNumValues,
// getAtIndex, remove, add), which behave as Envoy documents them.
func runCookieScript(t *testing.T, rewrites []graph.CookieRewrite, setCookies []string) []string {
	t.Helper()
	L := lua.NewState()
	defer L.Close()
	if err := L.DoString(cookieScript(rewrites)); err != nil {
		t.Fatalf("the script does not load: %v\n%s", err, cookieScript(rewrites))
	}
	values := slices.Clone(setCookies)
	headers := L.NewTable()
	method := func(name string, fn func(L *lua.LState) int) { headers.RawSetString(name, L.NewFunction(fn)) }
	method("getNumValues", func(L *lua.LState) int {
		if strings.EqualFold(L.CheckString(2), "set-cookie") {
			L.Push(lua.LNumber(len(values)))
		} else {
			L.Push(lua.LNumber(0))
		}
		return 1
	})
	method("getAtIndex", func(L *lua.LState) int {
		L.Push(lua.LString(values[L.CheckInt(3)]))
		return 1
	})
	method("remove", func(L *lua.LState) int { values = nil; return 0 })
	method("add", func(L *lua.LState) int { values = append(values, L.CheckString(3)); return 0 })
	handle := L.NewTable()
	handle.RawSetString("headers", L.NewFunction(func(L *lua.LState) int { L.Push(headers); return 1 }))
	if err := L.CallByParam(lua.P{Fn: L.GetGlobal("envoy_on_response"), Protect: true}, handle); err != nil {
		t.Fatalf("envoy_on_response: %v", err)
	}
	return values
}

func TestCookieScript(t *testing.T) {
	yes, no := true, false
	rewrites := []graph.CookieRewrite{
		{Name: "X-Session", Path: "/admin", SameSite: "Lax", Secure: &no},
		{Name: "X-Data", Domain: "example.com", Secure: &yes},
		{Name: `odd"name\`, Path: "/p\"q"},
	}
	for _, tt := range []struct {
		name     string
		in, want []string
	}{
		{"attributes rewritten, others kept in order",
			[]string{"X-Session=abc; Path=/; Secure; HttpOnly; samesite=Strict"},
			[]string{"X-Session=abc; HttpOnly; Path=/admin; SameSite=Lax"}},
		{"Secure added, Domain replaced whatever its case",
			[]string{"X-Data=1;DOMAIN=other.net;Max-Age=60"},
			[]string{"X-Data=1; Max-Age=60; Domain=example.com; Secure"}},
		{"other cookies untouched, several headers kept in order",
			[]string{"Other=1; Path=/", "X-Data=2", "X-Sessionx=3; Path=/"},
			[]string{"Other=1; Path=/", "X-Data=2; Domain=example.com; Secure", "X-Sessionx=3; Path=/"}},
		{"a value with = and spaces around the name",
			[]string{" X-Session = a=b ; Path=/x"},
			[]string{"X-Session = a=b; Path=/admin; SameSite=Lax"}},
		{"quotes and backslashes of names and values survive the Lua literals",
			[]string{`odd"name\=v`},
			[]string{`odd"name\=v; Path=/p"q`}},
		{"no Set-Cookie", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := runCookieScript(t, rewrites, tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("Set-Cookie %q\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMergeCookieRewrites(t *testing.T) {
	route := []graph.CookieRewrite{{Name: "a", Path: "/route"}, {Name: "b", Path: "/route"}}
	backend := []graph.CookieRewrite{{Name: "a", Path: "/backend"}}
	got := mergeCookieRewrites(route, backend)
	want := []graph.CookieRewrite{{Name: "a", Path: "/backend"}, {Name: "b", Path: "/route"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
