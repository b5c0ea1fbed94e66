package auth

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func benchToken(b *testing.B, subject string) string {
	b.Helper()
	tok, err := MintHS256(testSecret, testIssuer, testAudience, "acme", subject,
		[]string{"catalog.read", "catalog.write"}, time.Hour)
	if err != nil {
		b.Fatal(err)
	}
	return tok
}

// BenchmarkVerifyHS256Cold is the full check (parse, HMAC, claims) with the
// cache bypassed.
func BenchmarkVerifyHS256Cold(b *testing.B) {
	v := newHS(b)
	ctx := context.Background()
	tok := benchToken(b, "user-42")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := v.verifyUncached(ctx, tok, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyHS256ColdUnique goes through Verify with a token never seen
// before on every iteration: full check plus hashing and cache insertion
// (with eviction once the cache is full).
func BenchmarkVerifyHS256ColdUnique(b *testing.B) {
	v := newHS(b)
	ctx := context.Background()
	const pool = 1 << 15
	toks := make([]string, pool)
	for i := range toks {
		toks[i] = benchToken(b, fmt.Sprintf("user-%d", i))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i == pool { // ran out of fresh tokens: start over with an empty cache
			b.StopTimer()
			v.cache = newTokenCache(defaultCacheSize)
			i = 0
			b.StartTimer()
		}
		if _, err := v.Verify(ctx, toks[i]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkVerifyHS256Warm is a repeated token answered by the cache.
func BenchmarkVerifyHS256Warm(b *testing.B) {
	v := newHS(b)
	ctx := context.Background()
	tok := benchToken(b, "user-42")
	if _, err := v.Verify(ctx, tok); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(ctx, tok); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyHS256WarmParallel: cache hits from all Ps, 1024 distinct
// tokens spread over the shards.
func BenchmarkVerifyHS256WarmParallel(b *testing.B) {
	v := newHS(b)
	ctx := context.Background()
	toks := make([]string, 1024)
	for i := range toks {
		toks[i] = benchToken(b, fmt.Sprintf("user-%d", i))
		if _, err := v.Verify(ctx, toks[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := v.Verify(ctx, toks[i%len(toks)]); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
}

// BenchmarkVerifyRS256Cold and ES256Cold: full JWKS-backed checks (keys
// already cached by the jwks provider), cache bypassed.
func BenchmarkVerifyRS256Cold(b *testing.B) {
	v, k, _ := newJWKS(b, false)
	tok := sign(b, map[string]any{"alg": "RS256", "kid": "rsa-1"}, baseClaims(), k.rsa)
	benchUncached(b, v, tok)
}

func BenchmarkVerifyES256Cold(b *testing.B) {
	v, k, _ := newJWKS(b, false)
	tok := sign(b, map[string]any{"alg": "ES256", "kid": "ec-1"}, baseClaims(), k.ec)
	benchUncached(b, v, tok)
}

func benchUncached(b *testing.B, v *Verifier, tok string) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := v.verifyUncached(ctx, tok, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}
