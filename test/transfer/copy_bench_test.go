package transfer

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// BenchmarkCopyProducts is the reference of BenchmarkImportProducts (issue 26: imports at 0.3x
// COPY or better): the rows its b.N lines create (a product, its two category links and tag
// link, its three values) loaded by COPY (pgx.CopyFrom, one per table, in one transaction) into
// the same tables of a fresh tenant with the same structure, their triggers included; it
// reports lines/s (a line's rows) and rows/s. No checks, no events, no readiness or search
// upkeep beyond what the tables' own triggers do per statement:
// go test -run '^$' -bench CopyProducts -benchtime 2000x ./test/transfer (under cmd/testpg).
func BenchmarkCopyProducts(b *testing.B) {
	tenant, ctx, _, _ := benchTenant(b)
	id := func(table, code string) uuid.UUID {
		var u uuid.UUID
		if err := pool.QueryRow(ctx, "SELECT uuid FROM "+table+" WHERE tenant_id = $1 AND code = $2", tenant, code).Scan(&u); err != nil {
			b.Fatalf("%s %s: %v", table, code, err)
		}
		return u
	}
	de, en := id("locales", "de-DE"), id("locales", "en-GB")
	boots, sale, summer := id("categories", "boots"), id("categories", "sale"), id("tags", "summer")
	title, weight := id("input_types", "title"), id("input_types", "weight")

	now := time.Now().UTC()
	var products, links, values [][]any
	for i := 0; i < b.N; i++ {
		p := uuid.Must(uuid.NewV7())
		code := fmt.Sprintf("SKU-%07d", i)
		products = append(products, []any{tenant, p, code, code, "simple", "draft", now, now})
		for _, l := range []struct {
			kind   string
			target uuid.UUID
		}{{"category", boots}, {"category", sale}, {"tag", summer}} {
			links = append(links, []any{tenant, uuid.Must(uuid.NewV7()), p, l.kind, l.target, now, now})
		}
		for _, v := range []struct {
			input  uuid.UUID
			locale any
			value  string
		}{{title, de, fmt.Sprintf(`"Stiefel %d"`, i)}, {title, en, fmt.Sprintf(`"Boot %d"`, i)}, {weight, nil, fmt.Sprintf(`"1.%d"`, i%10)}} {
			values = append(values, []any{tenant, uuid.Must(uuid.NewV7()), p, v.input, v.locale, []byte(v.value), now, now})
		}
	}
	b.ResetTimer()
	tx, err := pool.Begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after commit
	for _, c := range []struct {
		table string
		cols  []string
		rows  [][]any
	}{
		{"products", []string{"tenant_id", "uuid", "code", "display_name", "kind", "status", "created_at", "updated_at"}, products},
		{"product_links", []string{"tenant_id", "uuid", "product_uuid", "kind", "target_uuid", "created_at", "updated_at"}, links},
		{"product_input_values", []string{"tenant_id", "uuid", "product_uuid", "input_type_uuid", "locale_uuid", "value", "created_at", "updated_at"}, values},
	} {
		n, err := tx.CopyFrom(ctx, pgx.Identifier{c.table}, c.cols, pgx.CopyFromRows(c.rows))
		if err != nil || n != int64(len(c.rows)) {
			b.Fatalf("COPY %s: %d rows, %v", c.table, n, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/s, "lines/s")
	b.ReportMetric(float64(len(products)+len(links)+len(values))/s, "rows/s")
}
