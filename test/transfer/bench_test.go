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
