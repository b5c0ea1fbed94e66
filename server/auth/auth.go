// Package auth verifies the bearer JWTs presented to catalogd and turns them
// into a tenant-scoped Principal.
//
// Conventions:
//
//   - The signing algorithm is pinned by configuration and never "none":
//     HS256 with a shared secret (development and tests) and/or RS256 and
//     ES256 with keys published at a JWKS URL (production). The validator is
//     picked by the token header's "alg"; any other algorithm is rejected, so
//     an HS256 token is never checked against a JWKS public key.
//   - "iss" and "aud" are required and must match the configuration, "exp" is
//     required, "nbf" and "iat" are honoured, with 30s of clock-skew leeway.
//   - The tenant is the "tenant_id" claim (required, non-empty string), the
//     scopes are the space-separated "scope" claim and the subject is "sub".
//
// Validation is done by github.com/auth0/go-jwt-middleware/v2's validator
// (and its jwks caching provider for the JWKS keys). Successful results are
// kept in a small bounded cache keyed by the SHA-256 of the token, so a
// repeated token costs a hash and a map lookup instead of a signature check.
//
// Every error Verify and ParseBearer return for a bad credential matches
// ErrInvalid (map it to 401 / codes.Unauthenticated); its message is safe to
// show to the client. A failure to obtain the signing keys matches
// ErrUnavailable instead (map it to 503 / codes.Unavailable).
package auth

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/auth0/go-jwt-middleware/v2/jwks"
	"github.com/auth0/go-jwt-middleware/v2/validator"
	jose "gopkg.in/go-jose/go-jose.v2"
	"gopkg.in/go-jose/go-jose.v2/jwt"
)

const (
	// Leeway is the clock skew tolerated on exp, nbf and iat.
	Leeway = 30 * time.Second

	// MinHS256SecretLen is the minimum shared-secret length (RFC 7518 §3.2:
	// an HS256 key must be at least as long as the hash output).
	MinHS256SecretLen = 32

	// maxTokenLen bounds the work done on hostile input. Real access tokens
	// are well under 2 KiB.
	maxTokenLen = 8 << 10

	maxTenantLen = 256

	// Cache parameters: at most defaultCacheSize verified tokens, each kept
	// until its exp but never longer than maxCacheTTL (so a key withdrawn
	// from the JWKS stops being honoured for cached tokens soon enough).
	defaultCacheSize = 10_000
	maxCacheTTL      = 5 * time.Minute
	cacheShards      = 16

	jwksCacheTTL     = 5 * time.Minute
	jwksFetchTimeout = 10 * time.Second
)

// ErrInvalid is matched (errors.Is) by every error that means "the
// credential is bad": map it to 401 / codes.Unauthenticated.
var ErrInvalid = errors.New("invalid token")

// ErrUnavailable is matched when the signing keys could not be fetched from
// the JWKS URL. It is not the client's fault: map it to 503 /
// codes.Unavailable. errors.Unwrap gives the cause, for server logs only.
var ErrUnavailable = errors.New("signing keys unavailable")

// The specific reasons. All of them match ErrInvalid; their messages are
// safe to return to clients.
var (
	ErrMissingToken    error = reason("missing bearer token")
	ErrBadScheme       error = reason("authorization scheme must be Bearer")
	ErrMalformed       error = reason("malformed token")
	ErrTooLarge        error = reason("token too large")
	ErrUnsupportedAlg  error = reason("unsupported signing algorithm")
	ErrUnknownKey      error = reason("unknown signing key")
	ErrSignature       error = reason("invalid signature")
	ErrExpired         error = reason("token expired")
	ErrNotYetValid     error = reason("token not yet valid")
	ErrIssuedInFuture  error = reason("token issued in the future")
	ErrMissingExp      error = reason("missing exp claim")
	ErrWrongIssuer     error = reason("wrong issuer")
	ErrWrongAudience   error = reason("wrong audience")
	ErrMissingTenant   error = reason("missing tenant_id claim")
	ErrInvalidTenant   error = reason("invalid tenant_id claim")
	ErrInvalidScope    error = reason("invalid scope claim")
	ErrMalformedClaims error = reason("malformed claims")
)

// reason is a client-safe rejection reason that matches ErrInvalid.
type reason string

func (r reason) Error() string        { return string(r) }
func (r reason) Is(target error) bool { return target == ErrInvalid }

// unavailableError hides the cause (URLs, network errors) from Error() but
// keeps it reachable through Unwrap for logging.
type unavailableError struct{ cause error }

func (e *unavailableError) Error() string        { return ErrUnavailable.Error() }
func (e *unavailableError) Is(target error) bool { return target == ErrUnavailable }
func (e *unavailableError) Unwrap() error        { return e.cause }

// keyFuncError marks errors that come from fetching keys, so they can be
// told apart from validation errors after the validator wrapped them.
type keyFuncError struct{ err error }

func (e *keyFuncError) Error() string { return e.err.Error() }
func (e *keyFuncError) Unwrap() error { return e.err }

// Config selects the accepted tokens. At least one of HS256Secret and
// JWKSURL must be set; both may be.
type Config struct {
	HS256Secret string // enables HS256; at least MinHS256SecretLen bytes
	JWKSURL     string // enables RS256 and ES256 with keys from this JWKS
	Issuer      string // required "iss"
	Audience    string // required member of "aud"
}

// Principal is the authenticated caller. Verify may hand the same *Principal
// to several callers (cache hits): treat it as read-only.
type Principal struct {
	Tenant  string
	Subject string
	// ClientID is the token's azp claim, else its client_id claim ("" without either): the
	// client that acted for the subject, as history names it.
	ClientID string
	Scopes   []string
}

// HasScope reports whether the principal was granted scope s.
func (p *Principal) HasScope(s string) bool {
	if p == nil {
		return false
	}
	for _, have := range p.Scopes {
		if have == s {
			return true
		}
	}
	return false
}

// Verifier checks tokens. It is safe for concurrent use.
type Verifier struct {
	validators map[string]*validator.Validator // by header "alg"
	cache      *tokenCache
	now        func() time.Time // injectable for tests
}

// New builds a Verifier. With a JWKSURL it fetches the key set once (using
// ctx) so that a wrong URL fails at start-up rather than on the first call;
// afterwards keys are cached and refreshed in the background.
func New(ctx context.Context, cfg Config) (*Verifier, error) {
	return newVerifier(ctx, cfg, jwksCacheTTL)
}

func newVerifier(ctx context.Context, cfg Config, jwksTTL time.Duration) (*Verifier, error) {
	if cfg.HS256Secret == "" && cfg.JWKSURL == "" {
		return nil, errors.New("auth: configure HS256Secret and/or JWKSURL")
	}
	if cfg.Issuer == "" {
		return nil, errors.New("auth: Issuer is required")
	}
	if cfg.Audience == "" {
		return nil, errors.New("auth: Audience is required")
	}
	v := &Verifier{
		validators: make(map[string]*validator.Validator, 3),
		cache:      newTokenCache(defaultCacheSize),
		now:        time.Now,
	}
	opts := []validator.Option{
		validator.WithCustomClaims(func() validator.CustomClaims { return &claims{} }),
		validator.WithAllowedClockSkew(Leeway),
	}
	audience := []string{cfg.Audience}

	if cfg.HS256Secret != "" {
		if len(cfg.HS256Secret) < MinHS256SecretLen {
			return nil, fmt.Errorf("auth: HS256Secret must be at least %d bytes", MinHS256SecretLen)
		}
		secret := []byte(cfg.HS256Secret)
		keyFunc := func(context.Context) (interface{}, error) { return secret, nil }
		val, err := validator.New(keyFunc, validator.HS256, cfg.Issuer, audience, opts...)
		if err != nil {
			return nil, fmt.Errorf("auth: %w", err)
		}
		v.validators[string(validator.HS256)] = val
	}

	if cfg.JWKSURL != "" {
		u, err := url.Parse(cfg.JWKSURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, errors.New("auth: JWKSURL must be an absolute http(s) URL")
		}
		client := &http.Client{
			Timeout:   jwksFetchTimeout,
			Transport: statusCheckingTransport{http.DefaultTransport},
		}
		// The provider's issuer URL is only used as its cache key when a
		// custom JWKS URI is set, but it must not be nil.
		provider := jwks.NewCachingProvider(u, jwksTTL,
			jwks.WithCustomJWKSURI(u),
			jwks.WithCustomClient(client),
		)
		keyFunc := func(ctx context.Context) (interface{}, error) {
			k, err := provider.KeyFunc(ctx)
			if err != nil {
				return nil, &keyFuncError{err}
			}
			return k, nil
		}
		keys, err := provider.KeyFunc(ctx)
		if err != nil {
			return nil, fmt.Errorf("auth: fetching JWKS: %w", err)
		}
		if ks, ok := keys.(*jose.JSONWebKeySet); !ok || len(ks.Keys) == 0 {
			return nil, errors.New("auth: JWKS contains no keys")
		}
		for _, alg := range []validator.SignatureAlgorithm{validator.RS256, validator.ES256} {
			val, err := validator.New(keyFunc, alg, cfg.Issuer, audience, opts...)
			if err != nil {
				return nil, fmt.Errorf("auth: %w", err)
			}
			v.validators[string(alg)] = val
		}
	}
	return v, nil
}

// statusCheckingTransport turns non-2xx JWKS responses into errors. Without
// it the jwks provider decodes e.g. a JSON 404 body as an empty key set and
// caches that.
type statusCheckingTransport struct{ next http.RoundTripper }

func (t statusCheckingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		resp.Body.Close()
		return nil, fmt.Errorf("JWKS endpoint returned HTTP %d", resp.StatusCode)
	}
	return resp, nil
}

// Verify checks token (without the "Bearer " prefix) and returns its
// principal. Errors match ErrInvalid or ErrUnavailable.
func (v *Verifier) Verify(ctx context.Context, token string) (*Principal, error) {
	if token == "" {
		return nil, ErrMissingToken
	}
	if len(token) > maxTokenLen {
		return nil, ErrTooLarge
	}
	key := tokenKey(token)
	now := v.now()
	if p, ok := v.cache.get(key, now); ok {
		return p, nil
	}
	p, exp, err := v.verifyUncached(ctx, token, now)
	if err != nil {
		return nil, err
	}
	// Cache until exp (not exp+leeway: tokens inside the leeway window are
	// re-verified every time), capped at maxCacheTTL.
	expires := exp
	if limit := now.Add(maxCacheTTL); limit.Before(expires) {
		expires = limit
	}
	if now.Before(expires) {
		v.cache.put(key, p, expires, now)
	}
	return p, nil
}

// tokenKey is the cache key. Hashing (rather than keying by the token) keeps
// bearer tokens out of long-lived memory; SHA-256 makes a forged token that
// collides with a cached one infeasible. unsafe avoids copying the token:
// Sum256 only reads its input.
func tokenKey(token string) [32]byte {
	return sha256.Sum256(unsafe.Slice(unsafe.StringData(token), len(token)))
}

// verifyUncached does the full check and returns the principal and the
// token's expiry.
func (v *Verifier) verifyUncached(ctx context.Context, token string, now time.Time) (*Principal, time.Time, error) {
	alg, err := headerAlg(token)
	if err != nil {
		return nil, time.Time{}, err
	}
	val, ok := v.validators[alg]
	if !ok {
		return nil, time.Time{}, ErrUnsupportedAlg
	}
	res, err := val.ValidateToken(ctx, token)
	if err != nil {
		return nil, time.Time{}, classify(err)
	}
	vc, ok := res.(*validator.ValidatedClaims)
	if !ok {
		return nil, time.Time{}, ErrMalformedClaims
	}
	cc, ok := vc.CustomClaims.(*claims)
	if !ok {
		return nil, time.Time{}, ErrMalformedClaims
	}
	// The validator only checks exp when present; we require it. We also
	// re-check the time window against our clock (injectable in tests).
	rc := vc.RegisteredClaims
	if rc.Expiry == 0 {
		return nil, time.Time{}, ErrMissingExp
	}
	exp := time.Unix(rc.Expiry, 0)
	if now.Add(-Leeway).After(exp) {
		return nil, time.Time{}, ErrExpired
	}
	if rc.NotBefore != 0 && now.Add(Leeway).Before(time.Unix(rc.NotBefore, 0)) {
		return nil, time.Time{}, ErrNotYetValid
	}
	return &Principal{
		Tenant:   cc.tenant,
		Subject:  rc.Subject,
		ClientID: cc.clientID(),
		Scopes:   cc.scopes,
	}, exp, nil
}

// headerAlg returns the "alg" of a JWS in compact serialization. Anything
// else (JSON serialization, JWE, garbage) is rejected here, before it
// reaches go-jose.
func headerAlg(token string) (string, error) {
	h, rest, ok := strings.Cut(token, ".")
	if !ok {
		return "", ErrMalformed
	}
	payload, sig, ok := strings.Cut(rest, ".")
	if !ok || h == "" || payload == "" || strings.Contains(sig, ".") {
		return "", ErrMalformed
	}
	raw, err := base64.RawURLEncoding.DecodeString(h)
	if err != nil {
		return "", ErrMalformed
	}
	var hdr struct {
		Alg string `json:"alg"`
	}
	if err := json.Unmarshal(raw, &hdr); err != nil {
		return "", ErrMalformed
	}
	if hdr.Alg == "" {
		return "", ErrUnsupportedAlg
	}
	return hdr.Alg, nil
}

// classify maps go-jwt-middleware / go-jose errors to client-safe reasons.
func classify(err error) error {
	var kf *keyFuncError
	var r reason
	switch {
	case errors.As(err, &kf):
		return &unavailableError{cause: kf.err}
	case errors.As(err, &r): // from claims.Validate
		return r
	case errors.Is(err, jwt.ErrExpired):
		return ErrExpired
	case errors.Is(err, jwt.ErrNotValidYet):
		return ErrNotYetValid
	case errors.Is(err, jwt.ErrIssuedInTheFuture):
		return ErrIssuedInFuture
	case errors.Is(err, jwt.ErrInvalidIssuer):
		return ErrWrongIssuer
	case errors.Is(err, jwt.ErrInvalidAudience):
		return ErrWrongAudience
	case errors.Is(err, jose.ErrCryptoFailure):
		return ErrSignature
	case errors.Is(err, jose.ErrUnsupportedKeyType):
		// go-jose could not pick a key out of the JWKS: no kid, or a kid
		// that is not in the set.
		return ErrUnknownKey
	case errors.Is(err, jose.ErrUnsupportedAlgorithm):
		return ErrUnsupportedAlg
	case errors.Is(err, jwt.ErrUnmarshalAudience), errors.Is(err, jwt.ErrUnmarshalNumericDate):
		return ErrMalformedClaims
	case strings.HasPrefix(err.Error(), "failed to deserialize token claims"):
		// Signature verified but the payload did not decode.
		return ErrMalformedClaims
	default:
		return ErrMalformed
	}
}

// claims are our custom claims. Loose types so that a wrong type yields a
// precise reason instead of a JSON error.
type claims struct {
	TenantID interface{} `json:"tenant_id"`
	Scope    interface{} `json:"scope"`
	// Azp and ClientID name the client (history's actor.clientId); a value that is not a
	// string is ignored.
	Azp      interface{} `json:"azp"`
	ClientID interface{} `json:"client_id"`

	tenant string
	scopes []string
}

// Validate implements validator.CustomClaims. It runs after the signature
// and the registered claims were checked.
func (c *claims) Validate(context.Context) error {
	switch t := c.TenantID.(type) {
	case nil:
		return ErrMissingTenant
	case string:
		if strings.TrimSpace(t) == "" {
			return ErrMissingTenant
		}
		if len(t) > maxTenantLen || !utf8.ValidString(t) ||
			strings.IndexFunc(t, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) }) >= 0 {
			return ErrInvalidTenant
		}
		c.tenant = t
	default:
		return ErrInvalidTenant
	}
	switch s := c.Scope.(type) {
	case nil:
	case string:
		c.scopes = strings.Fields(s)
	default:
		return ErrInvalidScope
	}
	return nil
}

// clientID is the azp claim, else client_id, else "".
func (c *claims) clientID() string {
	if s, ok := c.Azp.(string); ok && s != "" {
		return s
	}
	s, _ := c.ClientID.(string)
	return s
}

// ParseBearer extracts the token from an Authorization header value of the
// form "Bearer <token>" (scheme case-insensitive, RFC 6750 b64token).
func ParseBearer(header string) (string, error) {
	header = strings.TrimSpace(header)
	if header == "" {
		return "", ErrMissingToken
	}
	scheme, tok, ok := strings.Cut(header, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", ErrBadScheme
	}
	if !ok {
		return "", ErrMissingToken
	}
	tok = strings.TrimLeft(tok, " ")
	if tok == "" {
		return "", ErrMissingToken
	}
	if !isB64Token(tok) {
		return "", ErrMalformed
	}
	return tok, nil
}

// isB64Token: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
func isB64Token(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') ||
			c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' {
			continue
		}
		break
	}
	if i == 0 {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] != '=' {
			return false
		}
	}
	return true
}

// MintHS256 issues an HS256 token, for `catalogd token` and tests.
func MintHS256(secret, issuer, audience, tenant, subject string, scopes []string, ttl time.Duration) (string, error) {
	switch {
	case len(secret) < MinHS256SecretLen:
		return "", fmt.Errorf("auth: HS256 secret must be at least %d bytes", MinHS256SecretLen)
	case issuer == "" || audience == "":
		return "", errors.New("auth: issuer and audience are required")
	case tenant == "":
		return "", errors.New("auth: tenant is required")
	case ttl <= 0:
		return "", errors.New("auth: ttl must be positive")
	}
	for _, s := range scopes {
		if s == "" || strings.IndexFunc(s, unicode.IsSpace) >= 0 {
			return "", fmt.Errorf("auth: invalid scope %q", s)
		}
	}
	var jti [16]byte
	if _, err := rand.Read(jti[:]); err != nil {
		return "", err
	}
	now := time.Now()
	payload, err := json.Marshal(struct {
		Iss    string `json:"iss"`
		Aud    string `json:"aud"`
		Sub    string `json:"sub,omitempty"`
		Tenant string `json:"tenant_id"`
		Scope  string `json:"scope,omitempty"`
		Iat    int64  `json:"iat"`
		Nbf    int64  `json:"nbf"`
		Exp    int64  `json:"exp"`
		Jti    string `json:"jti"`
	}{issuer, audience, subject, tenant, strings.Join(scopes, " "),
		now.Unix(), now.Unix(), now.Add(ttl).Unix(), hex.EncodeToString(jti[:])})
	if err != nil {
		return "", err
	}
	return signHS256([]byte(secret), []byte(`{"alg":"HS256","typ":"JWT"}`), payload), nil
}

func signHS256(secret, header, payload []byte) string {
	enc := base64.RawURLEncoding
	var b bytes.Buffer
	b.Grow(enc.EncodedLen(len(header)) + enc.EncodedLen(len(payload)) + 45)
	b.WriteString(enc.EncodeToString(header))
	b.WriteByte('.')
	b.WriteString(enc.EncodeToString(payload))
	mac := hmac.New(sha256.New, secret)
	mac.Write(b.Bytes())
	b.WriteByte('.')
	b.WriteString(enc.EncodeToString(mac.Sum(nil)))
	return b.String()
}

// tokenCache maps sha256(token) to a verified principal until an expiry.
// Bounded; when a shard is full a few random entries are sampled, expired
// ones dropped, and if none were expired one of them is evicted (Go map
// iteration order is randomised), so inserts stay O(1).
type tokenCache struct {
	shards [cacheShards]cacheShard
}

type cacheShard struct {
	mu  sync.RWMutex
	m   map[[32]byte]cacheEntry
	max int
}

type cacheEntry struct {
	p       *Principal
	expires int64 // unix nanoseconds
}

func newTokenCache(size int) *tokenCache {
	per := (size + cacheShards - 1) / cacheShards
	if per < 1 {
		per = 1
	}
	c := &tokenCache{}
	for i := range c.shards {
		c.shards[i].m = make(map[[32]byte]cacheEntry)
		c.shards[i].max = per
	}
	return c
}

func (c *tokenCache) shard(key [32]byte) *cacheShard {
	return &c.shards[key[0]%cacheShards]
}

func (c *tokenCache) get(key [32]byte, now time.Time) (*Principal, bool) {
	s := c.shard(key)
	s.mu.RLock()
	e, ok := s.m[key]
	s.mu.RUnlock()
	if !ok {
		return nil, false
	}
	if now.UnixNano() < e.expires {
		return e.p, true
	}
	s.mu.Lock()
	if e, ok := s.m[key]; ok && now.UnixNano() >= e.expires {
		delete(s.m, key)
	}
	s.mu.Unlock()
	return nil, false
}

func (c *tokenCache) put(key [32]byte, p *Principal, expires, now time.Time) {
	s := c.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, exists := s.m[key]; !exists && len(s.m) >= s.max {
		s.evictLocked(now.UnixNano())
	}
	s.m[key] = cacheEntry{p: p, expires: expires.UnixNano()}
}

func (s *cacheShard) evictLocked(now int64) {
	const sample = 8
	var victim [32]byte
	haveVictim, n := false, 0
	for k, e := range s.m {
		if e.expires <= now {
			delete(s.m, k)
		} else if !haveVictim {
			victim, haveVictim = k, true
		}
		if n++; n >= sample {
			break
		}
	}
	if len(s.m) >= s.max && haveVictim {
		delete(s.m, victim)
	}
}

func (c *tokenCache) len() int {
	n := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.RLock()
		n += len(s.m)
		s.mu.RUnlock()
	}
	return n
}
