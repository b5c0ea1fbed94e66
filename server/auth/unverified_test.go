package auth

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

func seg(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func TestUnverified(t *testing.T) {
	all := []string{"catalog:read", "catalog:write"}
	hdr := seg(`{"alg":"HS256","typ":"JWT"}`)
	signed := hdr + "." + seg(fmt.Sprintf(`{"iss":"someone","aud":"else","tenant_id":"acme","sub":"alice","scope":"catalog:read","exp":%d}`,
		time.Now().Add(-time.Hour).Unix())) + "." + seg("not the signature")
	for _, tc := range []struct {
		name, token     string
		tenant, subject string
		scopes          []string
		err             error
	}{
		// Signature, issuer, audience and expiry are not checked: an expired token of another issuer.
		{name: "any signed token", token: signed, tenant: "acme", subject: "alice", scopes: []string{"catalog:read"}},
		{name: "no tenant, no scope", token: hdr + "." + seg(`{}`) + ".c2ln", tenant: "mock", scopes: all},
		{name: "alg none", token: seg(`{"alg":"none"}`) + "." + seg(`{"tenant_id":"t1","scope":""}`) + ".", tenant: "t1", scopes: []string{}},
		{name: "scopes", token: hdr + "." + seg(`{"tenant_id":"t2","scope":"webhooks:read catalog:read"}`) + ".eA", tenant: "t2",
			scopes: []string{"webhooks:read", "catalog:read"}},
		{name: "two segments", token: hdr + "." + seg(`{}`), err: ErrMalformed},
		{name: "not base64", token: hdr + ".!!." + "eA", err: ErrMalformedClaims},
		{name: "claims not an object", token: hdr + "." + seg(`[1]`) + ".eA", err: ErrMalformedClaims},
		{name: "header without alg", token: seg(`{"typ":"JWT"}`) + "." + seg(`{}`) + ".eA", err: ErrMalformed},
		{name: "bad signature segment", token: hdr + "." + seg(`{}`) + ".a+b", err: ErrMalformed},
		{name: "tenant not a string", token: hdr + "." + seg(`{"tenant_id":7}`) + ".eA", err: ErrInvalidTenant},
		{name: "tenant with a bidi override", token: hdr + "." + seg(`{"tenant_id":"a\u202eb"}`) + ".eA", err: ErrInvalidTenant},
		{name: "tenant with a space", token: hdr + "." + seg(`{"tenant_id":"a b"}`) + ".eA", err: ErrInvalidTenant},
		{name: "scope not a string", token: hdr + "." + seg(`{"scope":["x"]}`) + ".eA", err: ErrInvalidScope},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Unverified(tc.token, "mock", all)
			if tc.err != nil {
				if !errors.Is(err, tc.err) || p != nil {
					t.Fatalf("got %v, %v; want %v", p, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Tenant != tc.tenant || p.Subject != tc.subject || !slices.Equal(p.Scopes, tc.scopes) && !(len(p.Scopes) == 0 && len(tc.scopes) == 0) {
				t.Fatalf("got %+v, want tenant %s subject %s scopes %v", p, tc.tenant, tc.subject, tc.scopes)
			}
		})
	}
}
