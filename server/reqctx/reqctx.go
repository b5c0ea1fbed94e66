// Package reqctx carries the per-request values every layer needs: the authenticated caller and the
// request id.
package reqctx

import "context"

type key int

const (
	principalKey key = iota
	requestIDKey
)

// Principal is the authenticated caller of a request.
type Principal struct {
	Tenant  string
	Subject string
	Scopes  []string
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
