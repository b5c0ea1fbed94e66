package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
)

// Unverified reads the claims of any well-formed token without checking its signature, algorithm,
// issuer, audience or times: the tokens of `catalogd mock`, which accepts any well-formed bearer
// token (never a production verifier). Well-formed is a compact JWS: three base64url segments, the
// first a JSON object with an "alg", the second a JSON object of claims, the third any signature
// (empty for "alg":"none"). The claims are read as Verify reads them (tenant_id, scope, sub), except
// that a token without tenant_id is defaultTenant's and one without a scope claim has allScopes.
func Unverified(token, defaultTenant string, allScopes []string) (*Principal, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, ErrMalformed
	}
	var hdr struct {
		Alg any `json:"alg"`
	}
	if err := decodeSegment(parts[0], &hdr); err != nil {
		return nil, ErrMalformed
	}
	if alg, ok := hdr.Alg.(string); !ok || alg == "" {
		return nil, ErrMalformed
	}
	var c struct {
		claims
		Subject any `json:"sub"`
	}
	if err := decodeSegment(parts[1], &c); err != nil {
		return nil, ErrMalformedClaims
	}
	if _, err := base64.RawURLEncoding.DecodeString(parts[2]); err != nil {
		return nil, ErrMalformed
	}
	if c.TenantID == nil {
		c.TenantID = defaultTenant
	}
	if err := c.Validate(context.Background()); err != nil {
		return nil, err
	}
	scopes := c.scopes
	if c.Scope == nil {
		scopes = allScopes
	}
	sub, _ := c.Subject.(string)
	return &Principal{Tenant: c.tenant, Subject: sub, ClientID: c.clientID(), Scopes: scopes}, nil
}

// decodeSegment decodes a base64url (unpadded) segment holding one JSON object into v.
func decodeSegment(seg string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return err
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return ErrMalformed
	}
	return json.Unmarshal(b, v)
}
