package measure

import (
	"errors"
	"flag"
	"time"

	"github.com/catalogd/catalogd/server/auth"
)

// Tokens are the JWT settings of the catalogd a bench program runs against, read from the flags
// -secret, -issuer and -audience (named after the server's CATALOG_JWT_HS256_SECRET,
// CATALOG_JWT_ISSUER and CATALOG_JWT_AUDIENCE), and mint its bearer tokens.
type Tokens struct{ secret, issuer, audience *string }

// TokenFlags registers the three flags on the default flag set (call it in a package-level var,
// before flag.Parse); defaultIssuer is -issuer's default.
func TokenFlags(defaultIssuer string) Tokens {
	return Tokens{
		secret:   flag.String("secret", "", "CATALOG_JWT_HS256_SECRET of the server"),
		issuer:   flag.String("issuer", defaultIssuer, "CATALOG_JWT_ISSUER of the server"),
		audience: flag.String("audience", "catalog", "CATALOG_JWT_AUDIENCE of the server"),
	}
}

// ErrNoSecret: -secret was not given.
var ErrNoSecret = errors.New("-secret is required")

// Check reports ErrNoSecret when -secret is empty (call it right after flag.Parse).
func (t Tokens) Check() error {
	if *t.secret == "" {
		return ErrNoSecret
	}
	return nil
}

// Mint signs a token for tenant and subject with scopes, valid for ttl.
func (t Tokens) Mint(tenant, subject string, scopes []string, ttl time.Duration) (string, error) {
	if err := t.Check(); err != nil {
		return "", err
	}
	return auth.MintHS256(*t.secret, *t.issuer, *t.audience, tenant, subject, scopes, ttl)
}
