package main

// Full-text search and facets (issue 31): every product gets a name (text) and a description
// (rich text) in en-US and de-DE, drawn from a vocabulary per language whose word frequencies
// follow a Zipf law (-zipf, over -vocab words; the most frequent ranks are the language's real
// stop words, as in real catalog text, which the stemming configurations leave out); then
// -text-queries queries of 1 to 3 words are drawn from the same distributions (a query all of stop
// words is drawn again: no shopper searches "the"), and three searches are timed over them: q
// alone, q with a category tree, q with 4 facets. For each, the SQL the service runs (the
// tsquery's statement, then the page, the count and the facets, pipelined) is written as pgbench
// scripts, one per query, which run.sh runs with the same clients and duration.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/bench/measure"
	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
)

var (
	vocabSize   = flag.Int("vocab", 20000, "words per language of the generated text")
	zipfS       = flag.Float64("zipf", 1.07, "exponent s of the Zipf law of word frequencies (s > 1)")
	textQueries = flag.Int("text-queries", 50, "queries drawn for the full-text runs (REST and pgbench use the same ones)")
)

var stopWords = map[string][]string{
	"en": {"the", "and", "with", "for", "of", "a", "in", "to", "on", "is", "this", "by", "from", "or", "as", "at", "it", "an", "are", "that"},
	"de": {"der", "die", "und", "mit", "für", "das", "von", "in", "den", "zu", "ist", "im", "ein", "eine", "auf", "aus", "dem", "des", "sich", "bei"},
}

// vocabulary is a language's words by rank: its stop words, then generated words (syllables of
// the language's letters, distinct).
func vocabulary(lang string, n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	cons, vows := "bcdfghklmnprstvw", "aeiou"
	ends := []string{"", "s", "ing", "ed", "er", "ly"}
	if lang == "de" {
		cons, vows = "bcdfghklmnprstwz", "aeiouäöü"
		ends = []string{"", "en", "er", "e", "ung", "lich"}
	}
	cr, vr := []rune(cons), []rune(vows)
	seen := map[string]bool{}
	out := append([]string{}, stopWords[lang]...)
	for _, w := range out {
		seen[w] = true
	}
	for len(out) < n {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteRune(cr[r.IntN(len(cr))])
			b.WriteRune(vr[r.IntN(len(vr))])
		}
		b.WriteString(ends[r.IntN(len(ends))])
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// zipfText draws words of a language's vocabulary by the Zipf law.
type zipfText struct {
	words []string
	z     *rand.Zipf
}

func newZipfText(r *rand.Rand, words []string) *zipfText {
	return &zipfText{words, rand.NewZipf(r, *zipfS, 1, uint64(len(words)-1))}
}

func (t *zipfText) draw(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = t.words[t.z.Uint64()]
	}
	return out
}

// textTypes are the localized input types of the text.
type textTypes struct {
	locales, langs []string
	name, desc     string
}

// seedTextStructure creates the locales and input types through the API.
func seedTextStructure(a *api) (*textTypes, error) {
	tt := &textTypes{langs: []string{"en", "de"}}
	for _, code := range []string{"en-US", "de-DE"} {
		var l ref
		if err := a.Call("POST", "/v1/locales", obj{"code": code}, &l); err != nil {
			return nil, err
		}
		tt.locales = append(tt.locales, l.UUID)
	}
	var group, name, desc ref
	if err := a.Call("POST", "/v1/type-groups", obj{"code": "text", "entityType": "product"}, &group); err != nil {
		return nil, err
	}
	if err := a.Call("POST", "/v1/input-types", obj{"code": "name", "dataType": "text", "isLocalizable": true, "typeGroupUuid": group.UUID}, &name); err != nil {
		return nil, err
	}
	if err := a.Call("POST", "/v1/input-types", obj{"code": "description", "dataType": "rich_text", "isLocalizable": true, "typeGroupUuid": group.UUID}, &desc); err != nil {
		return nil, err
	}
	tt.name, tt.desc = name.UUID, desc.UUID
	return tt, nil
}

// copyText writes the names and descriptions of the products lo <= i < hi (COPY, in tx).
func copyText(ctx context.Context, tx pgx.Tx, tt *textTypes, gens []*zipfText, r *rand.Rand, lo, hi int, at time.Time) error {
	rows, err := tx.Query(ctx, `SELECT uuid::text FROM bench_search_seed WHERE i >= $1 AND i < $2 ORDER BY i`, lo, hi)
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	var src [][]any
	for _, id := range ids {
		for l := range tt.locales {
			name := strings.Join(gens[l].draw(4+r.IntN(5)), " ")
			words := gens[l].draw(20 + r.IntN(21))
			words[r.IntN(len(words))] = "<b>" + words[r.IntN(len(words))] + "</b>"
			desc := "<p>" + strings.Join(words, " ") + "</p>"
			for _, v := range []struct{ it, text string }{{tt.name, name}, {tt.desc, desc}} {
				js, _ := json.Marshal(v.text)
				src = append(src, []any{*tenant, newUUID(r), id, v.it, tt.locales[l], string(js), at, at})
			}
		}
	}
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"product_input_values"},
		[]string{"tenant_id", "uuid", "product_uuid", "input_type_uuid", "locale_uuid", "value", "created_at", "updated_at"},
		pgx.CopyFromRows(src))
	return err
}

func newUUID(r *rand.Rand) string {
	var b [16]byte
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// textSearch times the three full-text searches over the same drawn queries.
func textSearch(ctx context.Context, a *api, conn *pgx.Conn, s *structure, gens []*zipfText) error {
	r := rand.New(rand.NewPCG(31, 31))
	var queries []string
	for len(queries) < *textQueries {
		g := gens[r.IntN(len(gens))]
		words := g.draw(1 + r.IntN(3))
		stops := 0
		for _, w := range words {
			for _, l := range stopWords {
				for _, x := range l {
					if x == w {
						stops++
					}
				}
			}
		}
		if stops < len(words) {
			queries = append(queries, strings.Join(words, " "))
		}
	}
	facets := []string{"categoryTree", "terms", "families", "statuses"}
	scenarios := []struct {
		name, what string
		req        func(q string, k int) *pb.ListProductsRequest
	}{
		{"q", "q alone", func(q string, _ int) *pb.ListProductsRequest {
			return &pb.ListProductsRequest{Q: proto.String(q), Size: proto.Int32(20)}
		}},
		{"qtree", "q + categoryTreeUuids (a root)", func(q string, k int) *pb.ListProductsRequest {
			return &pb.ListProductsRequest{Q: proto.String(q), Size: proto.Int32(20), CategoryTreeUuids: &pb.StringsFilter{Eq: []string{s.roots[k%2]}}}
		}},
		{"qfacets", "q + 4 facets (" + strings.Join(facets, ", ") + ")", func(q string, _ int) *pb.ListProductsRequest {
			return &pb.ListProductsRequest{Q: proto.String(q), Size: proto.Int32(20), Facets: facets}
		}},
	}
	fmt.Printf("\n== full-text search: %d queries of 1-3 words drawn from the Zipf law of the text (s = %.2f, %d words per language), e.g. %q, %q, %q\n",
		len(queries), *zipfS, *vocabSize, queries[0], queries[1], queries[2])
	var matches []int64
	for _, sc := range scenarios {
		paths := make([]string, len(queries))
		for k, q := range queries {
			req := sc.req(q, k)
			v := url.Values{"q": {q}, "size": {"20"}}
			if req.CategoryTreeUuids != nil {
				v.Set("categoryTreeUuids[eq]", req.CategoryTreeUuids.Eq[0])
			}
			for _, f := range req.Facets {
				v.Add("facets[]", f)
			}
			paths[k] = "/v1/products?" + v.Encode()
			stmts, err := catalog.ProductList.Statements(ctx, conn, *tenant, req)
			if err != nil {
				return fmt.Errorf("%s %q: %w", sc.name, q, err)
			}
			// The count through REST equals the count SQL's (exact totalItems).
			var p page
			if err := a.Call("GET", paths[k], nil, &p); err != nil {
				return err
			}
			count, err := catalog.ProductList.CountStatement(ctx, conn, *tenant, req)
			if err != nil {
				return err
			}
			var n int64
			if err := conn.QueryRow(ctx, count.SQL, count.Args...).Scan(&n); err != nil {
				return err
			}
			if n != p.Pagination.TotalItems {
				return fmt.Errorf("%s %q: totalItems %d, the count SQL %d", sc.name, q, p.Pagination.TotalItems, n)
			}
			if sc.name == "q" {
				matches = append(matches, n)
			}
			if *outDir != "" {
				var b strings.Builder
				items := strings.Fields(strings.ReplaceAll(q, `"`, " "))
				phrases := make([]string, len(items))
				for i := range phrases {
					phrases[i] = "f"
				}
				js, _ := json.Marshal(items)
				arr := "{" + strings.Trim(string(js), "[]") + "}"
				fmt.Fprintf(&b, "SELECT (search_tsquery(%s, %s, '{%s}', true, NULL))::text;\n\\startpipeline\nSELECT set_config('plan_cache_mode', 'force_custom_plan', true);\n",
					measure.Quote(*tenant), measure.Quote(arr), strings.Join(phrases, ","))
				for _, st := range stmts {
					fmt.Fprintf(&b, "%s;\n", strings.Join(strings.Fields(measure.Literal(st.SQL, st.Args)), " "))
				}
				b.WriteString("\\endpipeline\n")
				if err := os.WriteFile(filepath.Join(*outDir, fmt.Sprintf("search_%s_%02d.sql", sc.name, k)), []byte(b.String()), 0o644); err != nil {
					return err
				}
			}
		}
		res := measure.Timed(*clients, *duration, *procs, func(r *rand.Rand) error {
			return a.Call("GET", paths[r.IntN(len(paths))], nil, nil)
		})
		cpu := ""
		if procs.Server > 0 {
			cpu = fmt.Sprintf("  CPU/req: catalogd %5.0f µs, postgres %5.0f µs", res.PerOp(res.CPU.Server), res.PerOp(res.CPU.Postgres))
		}
		fmt.Printf("%8.1f req/s  p50 %6.2f ms  p95 %6.2f ms  p99 %6.2f ms%s  REST %s, %d clients, %s\n",
			res.RPS(), res.P50, res.P95, res.P99, cpu, sc.what, *clients, *duration)
		if res.Errs > 0 {
			fmt.Printf("  %d errors, first: %v\n", res.Errs, res.FirstErr)
		}
		figures.Put("search_"+sc.name+"_rest_rps", res.RPS())
		figures.Put("search_"+sc.name+"_rest_p50_ms", res.P50)
		figures.Put("search_"+sc.name+"_rest_p99_ms", res.P99)
		figures.Put("search_"+sc.name+"_rest_errors", res.Errs)
	}
	var most, sum int64
	for _, m := range matches {
		most, sum = max(most, m), sum+m
	}
	fmt.Printf("matches of q alone: mean %d, most %d of %d products\n", sum/int64(len(matches)), most, *nProducts)
	figures.Put("search_q_matches_max", most)
	return nil
}
