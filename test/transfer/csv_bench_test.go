package transfer

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/catalogd/catalogd/server/transfer"
)

// BenchmarkImportProductsCSV is BenchmarkImportProducts from a CSV file: the same b.N products
// (two categories, a tag, a title in two locales and a weight each) as rows, read by transfer.CSV
// and applied by the merging importer; then the same file again (all unchanged). Reports rows/s:
// go test -run '^$' -bench ImportProductsCSV -benchtime 2000x ./test/transfer (under cmd/testpg).
func BenchmarkImportProductsCSV(b *testing.B) {
	_, ctx, im, _ := benchTenant(b)
	var file strings.Builder
	file.WriteString("code,kind,categories,tags,value:title@de-DE,value:title@en-GB,value:weight\r\n")
	for i := 0; i < b.N; i++ {
		fmt.Fprintf(&file, "SKU-%07d,simple,boots|sale,summer,\"Stiefel %d\",Boot %d,1.%d\r\n", i, i, i, i%10)
	}
	data := file.String()
	csvIm := im.Merging()
	run := func(want transfer.Outcome) {
		src, err := transfer.CSV(ctx, memOpen(data), transfer.Position{}, transfer.InputDataTypes(env.Server.DB))
		if err != nil {
			b.Fatal(err)
		}
		defer src.Close()
		for {
			l, err := src.Next(ctx)
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil || l.Fail != nil {
				b.Fatal(err, l.Fail)
			}
			res, err := csvIm.Apply(ctx, l.Raw)
			if err != nil || res.Outcome != want {
				b.Fatalf("row %d: %+v %v", l.No, res, err)
			}
		}
	}
	b.ResetTimer()
	run(transfer.Created)
	elapsed := b.Elapsed()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "rows/s")
	run(transfer.Unchanged)
	b.ReportMetric(float64(b.N)/(b.Elapsed()-elapsed).Seconds(), "reimport-rows/s")
}
