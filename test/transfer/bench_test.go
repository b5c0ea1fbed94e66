package transfer

import (
	"context"
	"fmt"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/transfer"
)

// BenchmarkImportProducts imports b.N product lines (two categories, a tag, a title in two
// locales and a weight each) into a fresh tenant, then the same file again (all unchanged), and
// reports lines/s of each: go test -run '^$' -bench ImportProducts -benchtime 2000x ./test/transfer
// (under cmd/testpg). The first import's figure is lines/s of the line path alone, without the
// job machinery (not built yet).
func BenchmarkImportProducts(b *testing.B) {
	_, ctx, im, fail := benchTenant(b)
	var file strings.Builder
	for i := 0; i < b.N; i++ {
		fmt.Fprintf(&file, `{"type":"product","code":"SKU-%07d","kind":"simple","categories":["boots","sale"],"tags":["summer"],`+
			`"values":[{"inputType":"title","locale":"de-DE","value":"Stiefel %d"},{"inputType":"title","locale":"en-GB","value":"Boot %d"},`+
			`{"inputType":"weight","value":"1.%d"}]}`+"\n", i, i, i, i%10)
	}
	b.ResetTimer()
	first, err := im.Run(ctx, strings.NewReader(file.String()), fail)
	if err != nil || first.Created != int64(b.N) {
		b.Fatalf("first import: %+v %v", first, err)
	}
	elapsed := b.Elapsed()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "lines/s")
	again, err := im.Run(ctx, strings.NewReader(file.String()), fail)
	if err != nil || again.Unchanged != int64(b.N) {
		b.Fatalf("re-import: %+v %v", again, err)
	}
	b.ReportMetric(float64(b.N)/(b.Elapsed()-elapsed).Seconds(), "reimport-lines/s")
}

// BenchmarkExportProducts exports exportBenchProducts products (two categories, a tag, an
// attribute with a term, two localized text values in two locales each: four values) b.N times
// and reports products/s and the export's bytes per product:
// go test -run '^$' -bench ExportProducts -benchtime 3x ./test/transfer (under cmd/testpg). The
// structure is imported as lines; the products are inserted by SQL (generate_series), since the
// figure is the export's.
func BenchmarkExportProducts(b *testing.B) {
	const n = exportBenchProducts
	tenant := "t-" + RandomHex(8)
	ctx := reqctx.WithPrincipal(context.Background(), &reqctx.Principal{Tenant: tenant, Subject: "bench"})
	im := transfer.NewImporter(env.Server.DB, catalog.TransferKinds())
	setup := strings.Join([]string{
		`{"type":"locale","code":"de-DE"}`, `{"type":"locale","code":"en-GB"}`,
		`{"type":"category","code":"boots"}`, `{"type":"category","code":"sale"}`, `{"type":"tag","code":"summer"}`,
		`{"type":"attribute","code":"color","terms":[{"code":"red"}]}`,
		`{"type":"typeGroup","code":"main","entityType":"product"}`,
		`{"type":"inputType","code":"title","typeGroup":"main","dataType":"text","isLocalizable":true}`,
		`{"type":"inputType","code":"description","typeGroup":"main","dataType":"text","isLocalizable":true}`,
	}, "\n")
	if _, err := im.Run(ctx, strings.NewReader(setup), func(r transfer.LineResult) { b.Fatalf("line %d: %+v", r.Line, r.Errors) }); err != nil {
		b.Fatal(err)
	}
	// Without triggers (session_replication_role replica): the search and readiness columns they
	// keep are not what an export reads, and per row they would make the setup minutes long.
	tx, err := pool.Begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	for _, q := range []string{
		`SET LOCAL session_replication_role = replica`,
		`INSERT INTO products (tenant_id, uuid, code, display_name, kind, status, created_at, updated_at)
			SELECT $1, gen_random_uuid(), 'SKU-' || lpad(i::text, 7, '0'), 'Product ' || i, 'simple', 'active', now(), now()
			FROM generate_series(1, $2::int) i`,
		`INSERT INTO product_links (tenant_id, uuid, product_uuid, kind, target_uuid, created_at, updated_at)
			SELECT $1, gen_random_uuid(), p.uuid, 'category', c.uuid, now(), now() FROM products p JOIN categories c ON c.tenant_id = p.tenant_id
			WHERE p.tenant_id = $1 AND $2::int > 0
			UNION ALL SELECT $1, gen_random_uuid(), p.uuid, 'tag', t.uuid, now(), now() FROM products p JOIN tags t ON t.tenant_id = p.tenant_id
			WHERE p.tenant_id = $1`,
		`INSERT INTO product_attributes (tenant_id, uuid, product_uuid, attribute_uuid, created_at, updated_at)
			SELECT $1, gen_random_uuid(), p.uuid, a.uuid, now(), now() FROM products p JOIN attributes a ON a.tenant_id = p.tenant_id
			WHERE p.tenant_id = $1 AND $2::int > 0`,
		`INSERT INTO product_terms (tenant_id, uuid, product_uuid, product_attribute_uuid, term_uuid, created_at, updated_at)
			SELECT $1, gen_random_uuid(), pa.product_uuid, pa.uuid, t.uuid, now(), now() FROM product_attributes pa
			JOIN attribute_terms t ON t.tenant_id = pa.tenant_id AND t.attribute_uuid = pa.attribute_uuid
			WHERE pa.tenant_id = $1 AND $2::int > 0`,
		`INSERT INTO product_input_values (tenant_id, uuid, product_uuid, input_type_uuid, locale_uuid, value, created_at, updated_at)
			SELECT $1, gen_random_uuid(), p.uuid, it.uuid, l.uuid, to_jsonb(it.code || ' ' || l.code || ' of ' || p.code), now(), now()
			FROM products p JOIN input_types it ON it.tenant_id = p.tenant_id JOIN locales l ON l.tenant_id = p.tenant_id
			WHERE p.tenant_id = $1 AND $2::int > 0`,
	} {
		args := []any{tenant, n}
		if !strings.Contains(q, "$1") {
			args = nil
		}
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "ANALYZE"); err != nil {
		b.Fatal(err)
	}
	ex := transfer.NewExporter(env.Server.DB, catalog.TransferKinds(), catalog.ProductList)
	var size int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var w countingWriter
		items, err := ex.Export(ctx, transfer.ExportOptions{Types: []string{"product"}}, &w, nil)
		if err != nil || items != n {
			b.Fatalf("export: %d items, %v", items, err)
		}
		size = w.n
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "products/s")
	b.ReportMetric(float64(size)/n, "bytes/product")
}

// exportBenchProducts is the catalog size of BenchmarkExportProducts.
const exportBenchProducts = 50000

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// benchTenant is a fresh tenant for the import benchmarks: the context of its importer and the
// structure their product lines use (two locales, the categories boots and sale, the tag summer,
// the input types title (localizable text) and weight (decimal)); fail ends a benchmark on a
// failed line.
func benchTenant(b *testing.B) (string, context.Context, *transfer.Importer, func(transfer.LineResult)) {
	b.Helper()
	tenant := "t-" + RandomHex(8)
	ctx := reqctx.WithPrincipal(context.Background(), &reqctx.Principal{Tenant: tenant, Subject: "bench"})
	im := transfer.NewImporter(env.Server.DB, catalog.TransferKinds())
	setup := strings.Join([]string{
		`{"type":"locale","code":"de-DE"}`, `{"type":"locale","code":"en-GB"}`,
		`{"type":"category","code":"boots"}`, `{"type":"category","code":"sale"}`, `{"type":"tag","code":"summer"}`,
		`{"type":"typeGroup","code":"main","entityType":"product"}`,
		`{"type":"inputType","code":"title","typeGroup":"main","dataType":"text","isLocalizable":true}`,
		`{"type":"inputType","code":"weight","typeGroup":"main","dataType":"decimal"}`,
	}, "\n")
	fail := func(r transfer.LineResult) { b.Fatalf("line %d: %+v", r.Line, r.Errors) }
	if _, err := im.Run(ctx, strings.NewReader(setup), fail); err != nil {
		b.Fatal(err)
	}
	return tenant, ctx, im, fail
}
