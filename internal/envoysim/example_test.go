package envoysim_test

import (
	"fmt"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/projectsesame/sesame/internal/envoysim"
)

func ExampleRoute() {
	rc := &routev3.RouteConfiguration{IgnorePortInHostMatching: true, VirtualHosts: []*routev3.VirtualHost{{
		Name:    "shop",
		Domains: []string{"shop.example.com"},
		Routes: []*routev3.Route{
			{
				Name:  "api",
				Match: &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_PathSeparatedPrefix{PathSeparatedPrefix: "/api"}},
				Action: &routev3.Route_Route{Route: &routev3.RouteAction{
					ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: "api-v1"},
				}},
			},
			{
				Name:  "to-https",
				Match: &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}},
				Action: &routev3.Route_Redirect{Redirect: &routev3.RedirectAction{
					SchemeRewriteSpecifier: &routev3.RedirectAction_HttpsRedirect{HttpsRedirect: true},
				}},
			},
		},
	}}}

	for _, path := range []string{"/api/users", "/apidocs"} {
		res := envoysim.Route(rc, "http", envoysim.Request{Authority: "shop.example.com:80", Method: "GET", Path: path})
		switch {
		case res.Redirect != nil:
			fmt.Println(path, "->", res.Route, res.Status(), res.Redirect.Location)
		default:
			fmt.Println(path, "->", res.Route, res.Cluster)
		}
	}
	// Output:
	// /api/users -> api api-v1
	// /apidocs -> to-https 301 https://shop.example.com/apidocs
}
