package auth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	testIssuer   = "https://issuer.catalogd.test/"
	testAudience = "catalogd-api"
	testSecret   = "0123456789abcdef0123456789abcdef-test-secret"
)

var b64 = base64.RawURLEncoding

// ---- real-crypto token construction (no mocks) ----

type testKeys struct {
	rsa *rsa.PrivateKey
	ec  *ecdsa.PrivateKey
}

var (
	keysOnce sync.Once
	keys     testKeys
)

func getKeys(t testing.TB) testKeys {
	t.Helper()
	keysOnce.Do(func() {
		r, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		e, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		keys = testKeys{rsa: r, ec: e}
	})
	return keys
}

// jwksJSON renders the public keys as a JWKS document.
func jwksJSON(t testing.TB, k testKeys) []byte {
	t.Helper()
	pt, err := k.ec.PublicKey.Bytes() // 0x04 || X || Y
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{"keys": []map[string]any{
		{
			"kty": "RSA", "kid": "rsa-1", "use": "sig", "alg": "RS256",
			"n": b64.EncodeToString(k.rsa.PublicKey.N.Bytes()),
			"e": b64.EncodeToString(big.NewInt(int64(k.rsa.PublicKey.E)).Bytes()),
		},
		{
			"kty": "EC", "kid": "ec-1", "use": "sig", "alg": "ES256", "crv": "P-256",
			"x": b64.EncodeToString(pt[1:33]),
			"y": b64.EncodeToString(pt[33:65]),
		},
	}}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jwksServer serves the JWKS and counts fetches.
func jwksServer(t testing.TB, k testKeys) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	body := jwksJSON(t, k)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// sign builds a compact JWS. key: []byte (HS256), *rsa.PrivateKey (RS256),
// *ecdsa.PrivateKey (ES256) or nil (alg none, empty signature).
func sign(t testing.TB, header, claims map[string]any, key any) string {
	t.Helper()
	hb, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	input := b64.EncodeToString(hb) + "." + b64.EncodeToString(cb)
	digest := sha256.Sum256([]byte(input))
	var sig []byte
	switch k := key.(type) {
	case nil:
	case []byte:
		m := hmac.New(sha256.New, k)
		m.Write([]byte(input))
		sig = m.Sum(nil)
	case *rsa.PrivateKey:
		sig, err = rsa.SignPKCS1v15(nil, k, crypto.SHA256, digest[:])
		if err != nil {
			t.Fatal(err)
		}
	case *ecdsa.PrivateKey:
		r, s, err := ecdsa.Sign(rand.Reader, k, digest[:])
		if err != nil {
			t.Fatal(err)
		}
		sig = make([]byte, 64)
		r.FillBytes(sig[:32])
		s.FillBytes(sig[32:])
	default:
		t.Fatalf("unsupported key %T", key)
	}
	return input + "." + b64.EncodeToString(sig)
}

// baseClaims are valid claims; tests mutate a copy.
func baseClaims() map[string]any {
	now := time.Now()
	return map[string]any{
		"iss":       testIssuer,
		"aud":       testAudience,
		"sub":       "user-42",
		"tenant_id": "acme",
		"scope":     "catalog.read catalog.write",
		"iat":       now.Unix(),
		"nbf":       now.Unix(),
		"exp":       now.Add(time.Hour).Unix(),
	}
}

func with(c map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(c))
	for k, v := range c {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		k := kv[i].(string)
		if kv[i+1] == nil {
			delete(out, k)
		} else {
			out[k] = kv[i+1]
		}
	}
	return out
}

func hsHeader() map[string]any { return map[string]any{"alg": "HS256", "typ": "JWT"} }

func newHS(t testing.TB) *Verifier {
	t.Helper()
	v, err := New(context.Background(), Config{HS256Secret: testSecret, Issuer: testIssuer, Audience: testAudience})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func newJWKS(t testing.TB, hs256 bool) (*Verifier, testKeys, *atomic.Int64) {
	t.Helper()
	k := getKeys(t)
	srv, hits := jwksServer(t, k)
	cfg := Config{JWKSURL: srv.URL + "/.well-known/jwks.json", Issuer: testIssuer, Audience: testAudience}
	if hs256 {
		cfg.HS256Secret = testSecret
	}
	v, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return v, k, hits
}

func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if err == nil {
		t.Fatalf("got nil error, want %q", want)
	}
	if !errors.Is(err, want) {
		t.Fatalf("got error %q, want %q", err, want)
	}
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("error %q does not match ErrInvalid", err)
	}
}

// ---- tests ----

func TestNewConfigErrors(t *testing.T) {
	ctx := context.Background()
	for name, cfg := range map[string]Config{
		"no keys":       {Issuer: testIssuer, Audience: testAudience},
		"no issuer":     {HS256Secret: testSecret, Audience: testAudience},
		"no audience":   {HS256Secret: testSecret, Issuer: testIssuer},
		"short secret":  {HS256Secret: "short", Issuer: testIssuer, Audience: testAudience},
		"bad jwks url":  {JWKSURL: "not a url", Issuer: testIssuer, Audience: testAudience},
		"relative jwks": {JWKSURL: "/jwks.json", Issuer: testIssuer, Audience: testAudience},
	} {
		t.Run(name, func(t *testing.T) {
			if v, err := New(ctx, cfg); err == nil || v != nil {
				t.Fatalf("New(%+v) = %v, %v; want error", cfg, v, err)
			}
		})
	}
}

func TestNewJWKSUnreachableOrBad(t *testing.T) {
	ctx := context.Background()
	notFound := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"not found"}`)) // decodes as an empty JWKS without the status check
	}))
	defer notFound.Close()
	empty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"keys":[]}`))
	}))
	defer empty.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()

	for name, u := range map[string]string{"404": notFound.URL, "empty": empty.URL, "down": closed.URL} {
		t.Run(name, func(t *testing.T) {
			_, err := New(ctx, Config{JWKSURL: u, Issuer: testIssuer, Audience: testAudience})
			if err == nil {
				t.Fatal("New succeeded with an unusable JWKS")
			}
		})
	}
}

func TestVerifyHS256Valid(t *testing.T) {
	v := newHS(t)
	tok, err := MintHS256(testSecret, testIssuer, testAudience, "acme", "user-42", []string{"catalog.read"}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Verify(context.Background(), tok)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if p.Tenant != "acme" || p.Subject != "user-42" || !slices.Equal(p.Scopes, []string{"catalog.read"}) {
		t.Fatalf("principal = %+v", p)
	}
	// Hand-built token too (independent of MintHS256).
	p, err = v.Verify(context.Background(), sign(t, hsHeader(), baseClaims(), []byte(testSecret)))
	if err != nil || p.Tenant != "acme" {
		t.Fatalf("Verify = %+v, %v", p, err)
	}
}

func TestVerifyJWKS(t *testing.T) {
	v, k, hits := newJWKS(t, false)
	ctx := context.Background()
	cases := []struct {
		name string
		hdr  map[string]any
		key  any
	}{
		{"RS256", map[string]any{"alg": "RS256", "typ": "JWT", "kid": "rsa-1"}, k.rsa},
		{"ES256", map[string]any{"alg": "ES256", "typ": "JWT", "kid": "ec-1"}, k.ec},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := v.Verify(ctx, sign(t, tc.hdr, with(baseClaims(), "tenant_id", "t-"+tc.name), tc.key))
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if p.Tenant != "t-"+tc.name || p.Subject != "user-42" {
				t.Fatalf("principal = %+v", p)
			}
		})
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("JWKS fetched %d times, want 1 (cached by the provider)", n)
	}

	t.Run("HS256 not configured", func(t *testing.T) {
		_, err := v.Verify(ctx, sign(t, hsHeader(), baseClaims(), []byte(testSecret)))
		wantErr(t, err, ErrUnsupportedAlg)
	})
	t.Run("unknown kid", func(t *testing.T) {
		hdr := map[string]any{"alg": "RS256", "kid": "nope"}
		_, err := v.Verify(ctx, sign(t, hdr, baseClaims(), k.rsa))
		wantErr(t, err, ErrUnknownKey)
	})
	t.Run("no kid", func(t *testing.T) {
		_, err := v.Verify(ctx, sign(t, map[string]any{"alg": "RS256"}, baseClaims(), k.rsa))
		wantErr(t, err, ErrUnknownKey)
	})
	t.Run("RS256 header, EC kid", func(t *testing.T) {
		hdr := map[string]any{"alg": "RS256", "kid": "ec-1"}
		_, err := v.Verify(ctx, sign(t, hdr, baseClaims(), k.rsa))
		wantErr(t, err, ErrSignature)
	})
	t.Run("signed by another RSA key", func(t *testing.T) {
		other, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		hdr := map[string]any{"alg": "RS256", "kid": "rsa-1"}
		_, err = v.Verify(ctx, sign(t, hdr, baseClaims(), other))
		wantErr(t, err, ErrSignature)
	})
	t.Run("RS384 rejected", func(t *testing.T) {
		hdr := map[string]any{"alg": "RS384", "kid": "rsa-1"}
		_, err := v.Verify(ctx, sign(t, hdr, baseClaims(), k.rsa)) // signature content irrelevant
		wantErr(t, err, ErrUnsupportedAlg)
	})
}

func TestVerifyBothConfigured(t *testing.T) {
	v, k, _ := newJWKS(t, true)
	ctx := context.Background()
	if _, err := v.Verify(ctx, sign(t, hsHeader(), baseClaims(), []byte(testSecret))); err != nil {
		t.Fatalf("HS256: %v", err)
	}
	if _, err := v.Verify(ctx, sign(t, map[string]any{"alg": "ES256", "kid": "ec-1"}, baseClaims(), k.ec)); err != nil {
		t.Fatalf("ES256: %v", err)
	}
}

func TestVerifyWrongSecret(t *testing.T) {
	v := newHS(t)
	tok, err := MintHS256("another-secret-that-is-long-enough!!", testIssuer, testAudience, "acme", "u", nil, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.Verify(context.Background(), tok)
	wantErr(t, err, ErrSignature)
	if strings.Contains(err.Error(), testSecret) {
		t.Fatal("error leaks the secret")
	}
}

func TestVerifyAlgNone(t *testing.T) {
	v, _, _ := newJWKS(t, true)
	ctx := context.Background()
	for _, alg := range []string{"none", "None", "NONE", ""} {
		t.Run("alg="+alg, func(t *testing.T) {
			tok := sign(t, map[string]any{"alg": alg, "typ": "JWT"}, baseClaims(), nil)
			_, err := v.Verify(ctx, tok)
			wantErr(t, err, ErrUnsupportedAlg)
			// Same with a (meaningless) HMAC signature attached.
			tok = sign(t, map[string]any{"alg": alg}, baseClaims(), []byte(testSecret))
			_, err = v.Verify(ctx, tok)
			wantErr(t, err, ErrUnsupportedAlg)
		})
	}
}

// TestVerifyAlgConfusion: an attacker signs an HS256 token using the RSA
// public key (which is public) as the HMAC secret.
func TestVerifyAlgConfusion(t *testing.T) {
	ctx := context.Background()
	k := getKeys(t)
	der, err := x509.MarshalPKIXPublicKey(&k.rsa.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	jwk := jwksJSON(t, k)

	t.Run("JWKS only", func(t *testing.T) {
		v, _, _ := newJWKS(t, false)
		for name, secret := range map[string][]byte{"pem": pemBytes, "der": der, "jwks": jwk, "n": k.rsa.PublicKey.N.Bytes()} {
			hdr := map[string]any{"alg": "HS256", "kid": "rsa-1"}
			_, err := v.Verify(ctx, sign(t, hdr, baseClaims(), secret))
			if !errors.Is(err, ErrUnsupportedAlg) {
				t.Errorf("%s: got %v, want %v", name, err, ErrUnsupportedAlg)
			}
		}
	})
	t.Run("JWKS and HS256", func(t *testing.T) {
		v, _, _ := newJWKS(t, true)
		hdr := map[string]any{"alg": "HS256", "kid": "rsa-1"}
		_, err := v.Verify(ctx, sign(t, hdr, baseClaims(), pemBytes))
		wantErr(t, err, ErrSignature)
	})
	t.Run("RS256 token against HS256 only", func(t *testing.T) {
		v := newHS(t)
		_, err := v.Verify(ctx, sign(t, map[string]any{"alg": "RS256", "kid": "rsa-1"}, baseClaims(), k.rsa))
		wantErr(t, err, ErrUnsupportedAlg)
	})
}

func TestVerifyClaims(t *testing.T) {
	v := newHS(t)
	ctx := context.Background()
	now := time.Now()
	cases := []struct {
		name   string
		claims map[string]any
		want   error // nil = accepted
	}{
		{"expired", with(baseClaims(), "exp", now.Add(-2*time.Minute).Unix()), ErrExpired},
		{"expired within leeway", with(baseClaims(), "exp", now.Add(-10*time.Second).Unix()), nil},
		{"missing exp", with(baseClaims(), "exp", nil), ErrMissingExp},
		{"nbf in future", with(baseClaims(), "nbf", now.Add(5*time.Minute).Unix()), ErrNotYetValid},
		{"nbf within leeway", with(baseClaims(), "nbf", now.Add(10*time.Second).Unix()), nil},
		{"iat in future", with(baseClaims(), "iat", now.Add(5*time.Minute).Unix()), ErrIssuedInFuture},
		{"wrong iss", with(baseClaims(), "iss", "https://evil.example/"), ErrWrongIssuer},
		{"missing iss", with(baseClaims(), "iss", nil), ErrWrongIssuer},
		{"wrong aud", with(baseClaims(), "aud", "other-api"), ErrWrongAudience},
		{"missing aud", with(baseClaims(), "aud", nil), ErrWrongAudience},
		{"aud list containing ours", with(baseClaims(), "aud", []string{"x", testAudience}), nil},
		{"missing tenant_id", with(baseClaims(), "tenant_id", nil), ErrMissingTenant},
		{"empty tenant_id", with(baseClaims(), "tenant_id", ""), ErrMissingTenant},
		{"blank tenant_id", with(baseClaims(), "tenant_id", "  "), ErrMissingTenant},
		{"numeric tenant_id", with(baseClaims(), "tenant_id", 42), ErrInvalidTenant},
		{"tenant_id with newline", with(baseClaims(), "tenant_id", "acme\nadmin"), ErrInvalidTenant},
		{"tenant_id with a zero-width space", with(baseClaims(), "tenant_id", "acme\u200badmin"), ErrInvalidTenant},
		{"tenant_id with a right-to-left override", with(baseClaims(), "tenant_id", "acme\u202enimda"), ErrInvalidTenant},
		{"numeric scope", with(baseClaims(), "scope", 7), ErrInvalidScope},
		{"string exp", with(baseClaims(), "exp", "tomorrow"), ErrMalformedClaims},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := v.Verify(ctx, sign(t, hsHeader(), tc.claims, []byte(testSecret)))
			if tc.want == nil {
				if err != nil || p == nil {
					t.Fatalf("got %v, %v; want success", p, err)
				}
				return
			}
			wantErr(t, err, tc.want)
			if p != nil {
				t.Fatalf("got principal %+v with error", p)
			}
		})
	}
}

func TestVerifyMalformed(t *testing.T) {
	v := newHS(t)
	ctx := context.Background()
	valid := sign(t, hsHeader(), baseClaims(), []byte(testSecret))
	parts := strings.Split(valid, ".")
	jsonSerialization := `{"payload":"` + parts[1] + `","protected":"` + parts[0] + `","signature":"` + parts[2] + `"}`
	cases := map[string]struct {
		tok  string
		want error
	}{
		"empty":              {"", ErrMissingToken},
		"garbage":            {"garbage", ErrMalformed},
		"two parts":          {parts[0] + "." + parts[1], ErrMalformed},
		"four parts":         {valid + ".x", ErrMalformed},
		"many dots":          {strings.Repeat(".", 100), ErrMalformed},
		"bad header b64":     {"!!!." + parts[1] + "." + parts[2], ErrMalformed},
		"header not json":    {b64.EncodeToString([]byte("nope")) + "." + parts[1] + "." + parts[2], ErrMalformed},
		"tampered payload":   {parts[0] + "." + b64.EncodeToString([]byte(`{"tenant_id":"other"}`)) + "." + parts[2], ErrSignature},
		"json serialization": {jsonSerialization, ErrMalformed},
		"too large":          {strings.Repeat("a", maxTokenLen+1), ErrTooLarge},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := v.Verify(ctx, tc.tok)
			wantErr(t, err, tc.want)
		})
	}
}

func TestScopes(t *testing.T) {
	v := newHS(t)
	ctx := context.Background()
	p, err := v.Verify(ctx, sign(t, hsHeader(), with(baseClaims(), "scope", "  a  b\tc "), []byte(testSecret)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Scopes, []string{"a", "b", "c"}) {
		t.Fatalf("scopes = %q", p.Scopes)
	}
	if !p.HasScope("b") || p.HasScope("d") || p.HasScope("") {
		t.Fatal("HasScope wrong")
	}
	p, err = v.Verify(ctx, sign(t, hsHeader(), with(baseClaims(), "scope", nil), []byte(testSecret)))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Scopes) != 0 || p.HasScope("a") {
		t.Fatalf("no scope claim: scopes = %q", p.Scopes)
	}
	var nilP *Principal
	if nilP.HasScope("a") {
		t.Fatal("nil principal has scope")
	}
	// MintHS256 round trip.
	tok, err := MintHS256(testSecret, testIssuer, testAudience, "acme", "svc", []string{"x.read", "x.write"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	p, err = v.Verify(ctx, tok)
	if err != nil || !slices.Equal(p.Scopes, []string{"x.read", "x.write"}) {
		t.Fatalf("minted: %+v, %v", p, err)
	}
}

func TestMintHS256Errors(t *testing.T) {
	for name, f := range map[string]func() (string, error){
		"short secret": func() (string, error) {
			return MintHS256("short", testIssuer, testAudience, "t", "s", nil, time.Hour)
		},
		"no issuer": func() (string, error) {
			return MintHS256(testSecret, "", testAudience, "t", "s", nil, time.Hour)
		},
		"no tenant": func() (string, error) {
			return MintHS256(testSecret, testIssuer, testAudience, "", "s", nil, time.Hour)
		},
		"zero ttl": func() (string, error) {
			return MintHS256(testSecret, testIssuer, testAudience, "t", "s", nil, 0)
		},
		"scope with space": func() (string, error) {
			return MintHS256(testSecret, testIssuer, testAudience, "t", "s", []string{"a b"}, time.Hour)
		},
	} {
		if _, err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	a, _ := MintHS256(testSecret, testIssuer, testAudience, "t", "s", nil, time.Hour)
	b, _ := MintHS256(testSecret, testIssuer, testAudience, "t", "s", nil, time.Hour)
	if a == b {
		t.Error("minted tokens are not unique (jti)")
	}
}

func TestCache(t *testing.T) {
	v := newHS(t)
	ctx := context.Background()
	tok, err := MintHS256(testSecret, testIssuer, testAudience, "acme", "user-42", []string{"r"}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	p1, err := v.Verify(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := v.Verify(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	if p1 != p2 {
		t.Fatal("second Verify did not come from the cache")
	}
	if v.cache.len() != 1 {
		t.Fatalf("cache len = %d", v.cache.len())
	}

	// A failed verification is never cached.
	bad := tok[:len(tok)-2] + "AA"
	if _, err := v.Verify(ctx, bad); err == nil {
		t.Fatal("tampered token accepted")
	}
	if v.cache.len() != 1 {
		t.Fatalf("cache len after failure = %d", v.cache.len())
	}

	// Time travel past exp (+ leeway): the cached entry must not be used,
	// and the full check must reject the token too.
	v.now = func() time.Time { return time.Now().Add(time.Hour + Leeway + time.Second) }
	if _, err := v.Verify(ctx, tok); !errors.Is(err, ErrExpired) {
		t.Fatalf("after exp: got %v, want %v", err, ErrExpired)
	}
	if v.cache.len() != 0 {
		t.Fatalf("expired entry still cached (len %d)", v.cache.len())
	}

	// Entries never outlive maxCacheTTL even for long-lived tokens.
	v.now = time.Now
	if _, err := v.Verify(ctx, tok); err != nil {
		t.Fatal(err)
	}
	key := tokenKey(tok)
	if _, ok := v.cache.get(key, time.Now().Add(maxCacheTTL+time.Second)); ok {
		t.Fatal("cache entry outlived maxCacheTTL")
	}
}

func TestCacheCapsOnExpiryBeforeTTL(t *testing.T) {
	v := newHS(t)
	tok, err := MintHS256(testSecret, testIssuer, testAudience, "acme", "u", nil, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(context.Background(), tok); err != nil {
		t.Fatal(err)
	}
	key := tokenKey(tok)
	if _, ok := v.cache.get(key, time.Now().Add(3*time.Second)); ok {
		t.Fatal("cache entry outlived the token's exp")
	}
}

func TestCacheBounded(t *testing.T) {
	c := newTokenCache(64)
	now := time.Now()
	p := &Principal{Tenant: "t"}
	for i := 0; i < 10_000; i++ {
		k := sha256.Sum256([]byte{byte(i), byte(i >> 8)})
		c.put(k, p, now.Add(time.Hour), now)
	}
	if n := c.len(); n > 64 {
		t.Fatalf("cache holds %d entries, cap 64", n)
	}
	// Expired entries are reclaimed first.
	c = newTokenCache(16)
	for i := 0; i < 16; i++ {
		c.put(sha256.Sum256([]byte{byte(i)}), p, now.Add(time.Second), now)
	}
	later := now.Add(time.Minute)
	fresh := sha256.Sum256([]byte("fresh"))
	c.put(fresh, p, later.Add(time.Hour), later)
	if _, ok := c.get(fresh, later); !ok {
		t.Fatal("fresh entry missing")
	}
}

func TestVerifyConcurrent(t *testing.T) {
	v, k, _ := newJWKS(t, true)
	ctx := context.Background()
	toks := []string{
		sign(t, hsHeader(), baseClaims(), []byte(testSecret)),
		sign(t, map[string]any{"alg": "RS256", "kid": "rsa-1"}, baseClaims(), k.rsa),
		sign(t, map[string]any{"alg": "ES256", "kid": "ec-1"}, baseClaims(), k.ec),
	}
	bad := sign(t, hsHeader(), baseClaims(), []byte("wrong-secret-wrong-secret-wrong-secret"))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if _, err := v.Verify(ctx, toks[i%len(toks)]); err != nil {
					t.Error(err)
					return
				}
				if _, err := v.Verify(ctx, bad); !errors.Is(err, ErrSignature) {
					t.Errorf("bad token: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestJWKSUnavailable: when the key set cannot be fetched any more, Verify
// fails with ErrUnavailable (not ErrInvalid) and a client-safe message, and
// recovers once the endpoint is back.
func TestJWKSUnavailable(t *testing.T) {
	k := getKeys(t)
	body := jwksJSON(t, k)
	var failing atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		w.Write(body)
	}))
	defer srv.Close()
	ctx := context.Background()
	v, err := newVerifier(ctx, Config{JWKSURL: srv.URL, Issuer: testIssuer, Audience: testAudience}, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	hdr := map[string]any{"alg": "RS256", "kid": "rsa-1"}
	failing.Store(true)
	time.Sleep(40 * time.Millisecond) // JWKS cache TTL elapses

	// The provider serves stale keys while refreshing in the background; a
	// failed refresh drops the keys, then fetches are synchronous and fail.
	// Unique tokens so our own cache does not answer.
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err = v.Verify(ctx, sign(t, hdr, with(baseClaims(), "jti", time.Now().String()), k.rsa))
		if err != nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrInvalid) {
		t.Fatalf("got %v, want ErrUnavailable", err)
	}
	if err.Error() != ErrUnavailable.Error() || strings.Contains(err.Error(), "127.0.0.1") {
		t.Fatalf("unavailable error leaks detail: %q", err)
	}
	if errors.Unwrap(err) == nil {
		t.Fatal("cause not reachable for logging")
	}

	failing.Store(false)
	if _, err := v.Verify(ctx, sign(t, hdr, with(baseClaims(), "jti", "after"), k.rsa)); err != nil {
		t.Fatalf("after recovery: %v", err)
	}
}

func TestParseBearer(t *testing.T) {
	cases := []struct {
		in, tok string
		want    error
	}{
		{"Bearer abc.def.ghi", "abc.def.ghi", nil},
		{"bearer abc.def.ghi", "abc.def.ghi", nil},
		{"BEARER abc.def.ghi", "abc.def.ghi", nil},
		{"Bearer   abc.def.ghi  ", "abc.def.ghi", nil},
		{"Bearer a-b_c~d+e/f==", "a-b_c~d+e/f==", nil},
		{"", "", ErrMissingToken},
		{"   ", "", ErrMissingToken},
		{"Bearer", "", ErrMissingToken},
		{"Bearer ", "", ErrMissingToken},
		{"Basic dXNlcjpwYXNz", "", ErrBadScheme},
		{"abc.def.ghi", "", ErrBadScheme},
		{"Bearerabc.def.ghi", "", ErrBadScheme},
		{"Bearer abc def", "", ErrMalformed},
		{"Bearer abc\tdef", "", ErrMalformed},
		{"Bearer ==abc", "", ErrMalformed},
		{"Bearer abc=d", "", ErrMalformed},
	}
	for _, tc := range cases {
		got, err := ParseBearer(tc.in)
		if tc.want == nil {
			if err != nil || got != tc.tok {
				t.Errorf("ParseBearer(%q) = %q, %v; want %q", tc.in, got, err, tc.tok)
			}
			continue
		}
		if !errors.Is(err, tc.want) || !errors.Is(err, ErrInvalid) || got != "" {
			t.Errorf("ParseBearer(%q) = %q, %v; want error %v", tc.in, got, err, tc.want)
		}
	}
}
