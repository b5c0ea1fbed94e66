// Package reqctx carries the per-request values every layer needs: the authenticated caller and the
// request id.
package reqctx

import (
	"context"
	"encoding/json"
)

type key int

const (
	principalKey key = iota
	requestIDKey
)

// Principal is the authenticated caller of a request.
type Principal struct {
	Tenant  string
	Subject string
	// ClientID is the token's azp or client_id claim ("" without one).
	ClientID string
	// ImportUUID names the import whose lines are written under this principal (Subject and
	// ClientID are then who created the import).
	ImportUUID string
	// System marks the service's own background writer (the scheduler).
	System bool
	Scopes []string
}

// Actor is the JSON actor of history entries (API.md "History"): {"subject", "clientId"} of the
// token, with "importUuid" for an import's lines; {"subject": "system"} for the service itself.
func (p *Principal) Actor() []byte {
	if p.System {
		return []byte(`{"subject":"system"}`)
	}
	a := struct {
		Subject    string  `json:"subject"`
		ClientID   *string `json:"clientId"`
		ImportUUID string  `json:"importUuid,omitempty"`
	}{Subject: p.Subject, ImportUUID: p.ImportUUID}
	if p.ClientID != "" {
		a.ClientID = &p.ClientID
	}
	b, _ := json.Marshal(a)
	return b
}

// HasScope reports whether the caller's token carries scope s.
func (p *Principal) HasScope(s string) bool {
	for _, x := range p.Scopes {
		if x == s {
			return true
		}
	}
	return false
}

// WithPrincipal stores the caller.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}

// PrincipalFrom returns the caller, or nil outside an authenticated request.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey).(*Principal)
	return p
}

// Tenant is the caller's tenant; it panics outside an authenticated request, which is a programming
// error (the auth interceptor runs before every service method).
func Tenant(ctx context.Context) string {
	p := PrincipalFrom(ctx)
	if p == nil {
		panic("reqctx.Tenant called outside an authenticated request")
	}
	return p.Tenant
}

// WithRequestID stores the request id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}

// RequestID returns the request id, or "".
func RequestID(ctx context.Context) string {
	s, _ := ctx.Value(requestIDKey).(string)
	return s
}
