package gateway

import (
	"crypto/x509"
	"net/http"
	"sync"
)

// Identity is an authenticated client: the user and groups the upstream
// servers are asked to impersonate.
type Identity struct {
	User   string
	Groups []string

	header [2][]string // Impersonate-User, Impersonate-Group: made once, shared by every request
}

// NewIdentity is the identity of user in groups.
func NewIdentity(user string, groups []string) *Identity {
	id := &Identity{User: user, Groups: groups}
	id.header[0] = []string{user}
	id.header[1] = groups
	return id
}

// An Authenticator says who made a request; nil when no user is known,
// which the gateway answers 401. Authenticate is called for every request,
// from many goroutines.
type Authenticator interface {
	Authenticate(r *http.Request) *Identity
}

// AuthenticatorFunc is an Authenticator of a function.
type AuthenticatorFunc func(r *http.Request) *Identity

func (f AuthenticatorFunc) Authenticate(r *http.Request) *Identity { return f(r) }

// ClientCertificates authenticates a client by the certificate its TLS
// connection presented and the server verified (tls.Config.ClientAuth
// RequireAndVerifyClientCert, or VerifyClientCertIfGiven), as
// kube-apiserver does: the subject's common name is the user, its
// organizations the groups, and every authenticated user is in
// system:authenticated. Identities are kept by certificate (at most
// maxIdentities of them), so that requests share one. The zero value is
// ready to use.
type ClientCertificates struct {
	mu         sync.RWMutex
	identities map[string]*Identity // by the certificate's DER bytes
}

// maxIdentities bounds the identities kept; past it, they are made anew.
const maxIdentities = 4096

func (c *ClientCertificates) Authenticate(r *http.Request) *Identity {
	if r.TLS == nil || len(r.TLS.VerifiedChains) == 0 || len(r.TLS.VerifiedChains[0]) == 0 {
		return nil
	}
	cert := r.TLS.VerifiedChains[0][0]
	c.mu.RLock()
	id, ok := c.identities[string(cert.Raw)]
	c.mu.RUnlock()
	if ok {
		return id
	}
	if cert.Subject.CommonName == "" {
		return nil
	}
	id = identityOf(cert)
	c.mu.Lock()
	if c.identities == nil || len(c.identities) >= maxIdentities {
		c.identities = map[string]*Identity{}
	}
	c.identities[string(cert.Raw)] = id
	c.mu.Unlock()
	return id
}

func identityOf(cert *x509.Certificate) *Identity {
	groups := append([]string{}, cert.Subject.Organization...)
	authenticated := false
	for _, g := range groups {
		authenticated = authenticated || g == "system:authenticated"
	}
	if !authenticated {
		groups = append(groups, "system:authenticated")
	}
	return NewIdentity(cert.Subject.CommonName, groups)
}
