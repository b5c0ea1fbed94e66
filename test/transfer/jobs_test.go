package transfer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/retention"
)

// Import jobs over REST (API.md "Import and export (jobs)"): the file inline or uploaded in two
// steps, the workers applying it, progress and counts, failed lines listed with their reasons,
// dry runs, cancel, the job events.

// waitImport polls an import until it is finished (completed, failed or cancelled).
func waitImport(t *testing.T, c *Client, id string) map[string]any {
	t.Helper()
	var imp map[string]any
	WaitFor(t, 60*time.Second, "import "+id+" to finish", func() bool {
		imp = Want(t, c.Get("/v1/imports/"+id), 200).Obj()
		switch imp["status"] {
		case "completed", "failed", "cancelled":
			return true
		}
		return false
	})
	return imp
}

// wantCounts checks an import's line counts: created, updated, unchanged, failed.
func wantCounts(t *testing.T, imp map[string]any, created, updated, unchanged, failed int) {
	t.Helper()
	got := []any{imp["createdCount"], imp["updatedCount"], imp["unchangedCount"], imp["failedCount"]}
	want := []any{float64(created), float64(updated), float64(unchanged), float64(failed)}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("import %s counts (created, updated, unchanged, failed) %v, want %v", imp["uuid"], got, want)
	}
}

// failedLines lists an import's failed lines as "line type code field:CODE …".
func failedLines(t *testing.T, c *Client, id, query string) []string {
	t.Helper()
	var out []string
	for _, l := range Want(t, c.Get("/v1/imports/"+id+"/lines?size=100"+query), 200).Items() {
		s := fmt.Sprintf("%v %v %v", l["line"], l["type"], l["code"])
		for _, e := range l["errors"].([]any) {
			e := e.(map[string]any)
			if e["message"] == "" {
				t.Errorf("line %v: error without a message: %v", l["line"], e)
			}
			s += fmt.Sprintf(" %v:%v", e["field"], e["code"])
		}
		if l["status"] != "failed" {
			t.Errorf("line %v: status %v, want failed", l["line"], l["status"])
		}
		out = append(out, s)
	}
	return out
}

func wantLines(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// catalogFile is a small catalog in NDJSON: references to codes defined further down (the boots
// category's parent, the product's brand), a line that fails on its own, one that refers to a code
// the file never defines, a blank line and a line that is not JSON.
const catalogFile = `{"type":"locale","code":"de-DE"}
{"type":"category","code":"boots","parent":"shoes","status":"active"}
{"type":"category","code":"shoes","status":"active"}

{"type":"product","code":"BOOT-1","kind":"simple","brand":"acme","categories":["boots"],"status":"active"}
{"type":"brand","code":"acme","displayName":"ACME"}
{"type":"product","code":"BOOT-2","kind":"simple","brand":"nobody"}
{"type":"product","code":"BOOT-3","kind":"flying"}
not json
`

func TestInlineImport(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	log := NewEventLog(pool, tenant)
	r := c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(catalogFile))
	imp := Want(t, r, 201).Obj()
	id := Str(imp, "uuid")
	if imp["status"] != "queued" || imp["format"] != "ndjson" || imp["sizeBytes"] != float64(len(catalogFile)) || imp["dryRun"] != false {
		t.Errorf("inline create: %v", imp)
	}
	if _, upload := imp["uploadUrl"]; upload {
		t.Errorf("an inline create answers the import itself: %v", imp)
	}
	if sum := sha256.Sum256([]byte(catalogFile)); imp["checksumSha256"] != hex.EncodeToString(sum[:]) {
		t.Errorf("checksumSha256 %v", imp["checksumSha256"])
	}
	if loc := r.Header.Get("Location"); loc != "/v1/imports/"+id {
		t.Errorf("Location %q", loc)
	}
	done := waitImport(t, c, id)
	if done["status"] != "completed" || done["failureReason"] != nil {
		t.Fatalf("import: %v", done)
	}
	wantCounts(t, done, 5, 0, 0, 3)
	if done["linesRead"] != float64(9) || done["bytesRead"] != float64(len(catalogFile)) {
		t.Errorf("progress: linesRead %v bytesRead %v, want 9 (every line of the file, the blank one too) and %d", done["linesRead"], done["bytesRead"], len(catalogFile))
	}
	if TS(t, done["startedAt"]).IsZero() || TS(t, done["finishedAt"]).Before(TS(t, done["startedAt"])) {
		t.Errorf("times: %v %v", done["startedAt"], done["finishedAt"])
	}
	wantLines(t, "failed lines", failedLines(t, c, id, ""),
		"7 product BOOT-2 brand:UNRESOLVED_REFERENCE",
		"8 product BOOT-3 kind:MALFORMED_REQUEST",
		"9 <nil> <nil> :MALFORMED_REQUEST")
	wantLines(t, "line[min]=8", failedLines(t, c, id, "&line%5Bmin%5D=8&line%5Bmax%5D=8"), "8 product BOOT-3 kind:MALFORMED_REQUEST")
	wantLines(t, "codes[eq]", failedLines(t, c, id, "&codes%5Beq%5D=BOOT-2"), "7 product BOOT-2 brand:UNRESOLVED_REFERENCE")
	one := Want(t, c.Get("/v1/imports/"+id+"/lines?types%5Beq%5D=product&size=1"), 200).Items()[0]
	got := Want(t, c.Get("/v1/imports/"+id+"/lines/"+Str(one, "uuid")), 200).Obj()
	if got["line"] != float64(7) || got["importUuid"] != id {
		t.Errorf("get line: %v", got)
	}
	Problem(t, "unknown line", c.Get("/v1/imports/"+id+"/lines/"+RandomUUID()), 404, "NOT_FOUND")

	// The catalog is there, by the API.
	boots := Want(t, c.Get("/v1/products?codes%5Beq%5D=BOOT-1"), 200).Items()
	if len(boots) != 1 || boots[0]["status"] != "active" || boots[0]["brandUuid"] == nil {
		t.Errorf("BOOT-1: %v", boots)
	}
	events := log.All(t)
	var jobEvents []string
	for _, e := range events {
		if strings.HasPrefix(e.Type, "import.") {
			jobEvents = append(jobEvents, e.Type+" "+e.Payload["importUuid"])
		}
	}
	wantLines(t, "job events", jobEvents, "import.created "+id, "import.completed "+id)
	if len(events) < 7 {
		t.Errorf("the lines' own events: %v", events)
	}

	// The same file again changes nothing: every line that applied is unchanged, no resource event.
	seen := len(events)
	again := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(catalogFile)), 201).Obj()
	done = waitImport(t, c, Str(again, "uuid"))
	wantCounts(t, done, 0, 0, 5, 3)
	for _, e := range log.All(t)[seen:] {
		if !strings.HasPrefix(e.Type, "import.") {
			t.Errorf("re-import emitted %s", e)
		}
	}

	// Listed with the tenant's imports, newest last.
	list := Want(t, c.Get("/v1/imports?statuses%5Beq%5D=completed"), 200).Items()
	if len(list) != 2 || list[0]["uuid"] != id {
		t.Errorf("list: %v", UUIDsOf(list))
	}
	// Another tenant sees none of it.
	other, _ := env.TenantClient(t)
	Problem(t, "another tenant's import", other.Get("/v1/imports/"+id), 404, "NOT_FOUND")
	Problem(t, "another tenant's lines", other.Get("/v1/imports/"+id+"/lines"), 404, "NOT_FOUND")
}

func TestUploadedImport(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	file := []byte(`{"type":"locale","code":"fr-FR"}` + "\n" + `{"type":"tag","code":"sale","contents":{"fr-FR":{"displayName":"Soldes"}}}` + "\n")
	sum := sha256.Sum256(file)
	created := Want(t, c.Post("/v1/imports", Body("format", "ndjson", "fileName", "tags.ndjson", "sizeBytes", len(file),
		"checksumSha256", hex.EncodeToString(sum[:]))), 201).Obj()
	imp := created["import"].(map[string]any)
	id := Str(imp, "uuid")
	if imp["status"] != "awaiting_upload" || imp["fileName"] != "tags.ndjson" || created["uploadMethod"] != "PUT" {
		t.Fatalf("create: %v", created)
	}
	// Not uploaded yet: start refuses and the import fails.
	early := Want(t, c.Post("/v1/imports", Body("format", "ndjson", "sizeBytes", 3)), 201).Obj()
	Problem(t, "start without upload", c.Patch("/v1/imports/"+Str(early["import"].(map[string]any), "uuid")+"/actions/lifecycle",
		Body("transition", "start")), 409, "UPLOAD_VERIFICATION_FAILED")
	failed := Want(t, c.Get("/v1/imports/"+Str(early["import"].(map[string]any), "uuid")), 200).Obj()
	if failed["status"] != "failed" || !strings.Contains(Str(failed, "failureReason"), "no file") {
		t.Errorf("failed start: %v", failed)
	}

	Upload(t, created, file)
	started := Want(t, c.Patch("/v1/imports/"+id+"/actions/lifecycle", Body("transition", "start")), 200).Obj()
	if started["status"] != "queued" && started["status"] != "running" && started["status"] != "completed" {
		t.Errorf("started: %v", started)
	}
	done := waitImport(t, c, id)
	wantCounts(t, done, 2, 0, 0, 0)
	Problem(t, "start twice", c.Patch("/v1/imports/"+id+"/actions/lifecycle", Body("transition", "start")), 409, "INVALID_TRANSITION")
	Problem(t, "cancel a completed import", c.Patch("/v1/imports/"+id+"/actions/lifecycle", Body("transition", "cancel")), 409, "INVALID_TRANSITION")
	tags := Want(t, c.Get("/v1/tags?codes%5Beq%5D=sale&include%5Bcontents%5D=true"), 200).Items()
	if len(tags) != 1 || len(tags[0]["contentUuids"].([]any)) != 1 {
		t.Errorf("tag: %v", tags)
	}

	// Bad creates are refused with the field named.
	Problem(t, "no size", c.Post("/v1/imports", Body("format", "ndjson")), 400, "VALIDATION_FAILED", "sizeBytes")
	Problem(t, "no format", c.Post("/v1/imports", Body("sizeBytes", 3)), 400, "VALIDATION_FAILED", "format")
	Problem(t, "bad checksum", c.Post("/v1/imports", Body("format", "csv", "sizeBytes", 3, "checksumSha256", "xyz")), 400, "VALIDATION_FAILED", "checksumSha256")
	Problem(t, "too large", c.Post("/v1/imports", Body("format", "csv", "sizeBytes", int64(1)<<41)), 400, "VALIDATION_FAILED", "sizeBytes")
}

func TestImportCancelAndDryRun(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	log := NewEventLog(pool, tenant)
	up := Want(t, c.Post("/v1/imports", Body("format", "csv", "sizeBytes", 10)), 201).Obj()
	id := Str(up["import"].(map[string]any), "uuid")
	cancelled := Want(t, c.Patch("/v1/imports/"+id+"/actions/lifecycle", Body("transition", "cancel")), 200).Obj()
	if cancelled["status"] != "cancelled" || cancelled["finishedAt"] == nil {
		t.Errorf("cancel: %v", cancelled)
	}
	Problem(t, "start a cancelled import", c.Patch("/v1/imports/"+id+"/actions/lifecycle", Body("transition", "start")), 409, "INVALID_TRANSITION")
	Problem(t, "bad transition", c.Patch("/v1/imports/"+id+"/actions/lifecycle", Body("transition", "fly")), 400, "MALFORMED_REQUEST", "transition")

	// A dry run checks and counts every line, forward references included, and writes nothing.
	dry := Want(t, c.SendFile("POST", "/v1/imports?dryRun=true&fileName=dry.ndjson", "application/x-ndjson", []byte(catalogFile)), 201).Obj()
	if dry["dryRun"] != true || dry["fileName"] != "dry.ndjson" {
		t.Errorf("dry run: %v", dry)
	}
	done := waitImport(t, c, Str(dry, "uuid"))
	wantCounts(t, done, 5, 0, 0, 3)
	WantTotal(t, c, "/v1/products", 0)
	WantTotal(t, c, "/v1/categories", 0)
	var types []string
	for _, e := range log.All(t) {
		types = append(types, e.Type)
	}
	wantLines(t, "events of a cancel and a dry run", types, "import.created", "import.cancelled", "import.created", "import.completed")

	// Inline bodies: UTF-8 only, at most 1 MiB, a known query.
	Problem(t, "latin-1 body", c.SendFile("POST", "/v1/imports", "text/csv; charset=iso-8859-1", []byte("code\n")), 415, "UNSUPPORTED_MEDIA_TYPE")
	Problem(t, "bad dryRun", c.SendFile("POST", "/v1/imports?dryRun=maybe", "text/csv", []byte("code\n")), 400, "VALIDATION_FAILED")
	Problem(t, "2 MiB inline", c.SendFile("POST", "/v1/imports", "application/x-ndjson", bytes.Repeat([]byte("x"), 2<<20)), 413, "PAYLOAD_TOO_LARGE")
	Problem(t, "unknown query", c.SendFile("POST", "/v1/imports?color=red", "application/x-ndjson", []byte("{}")), 400, "VALIDATION_FAILED")
}

// TestImportBadLines: a file of bad lines completes with each one failed and named, never a
// failed or stuck job: invalid UTF-8, a 2 MiB line (uploaded: an inline file is at most 1 MiB), an
// array, an unknown type, a missing code, a duplicate key.
func TestImportBadLines(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	var file bytes.Buffer
	file.WriteString(`{"type":"locale","code":"de-DE","displayName":"` + "\xff" + `"}` + "\n")
	file.WriteString(`{"type":"locale","code":"big","displayName":"` + strings.Repeat("x", 2<<20) + `"}` + "\n")
	file.WriteString(`[1,2]` + "\n")
	file.WriteString(`{"type":"planet","code":"mars"}` + "\n")
	file.WriteString(`{"type":"tag"}` + "\n")
	file.WriteString(`{"type":"tag","code":"a","code":"b"}` + "\n")
	file.WriteString(`{"type":"tag","code":"fine"}`) // no final newline
	created := Want(t, c.Post("/v1/imports", Body("format", "ndjson", "sizeBytes", file.Len())), 201).Obj()
	Upload(t, created, file.Bytes())
	id := Str(created["import"].(map[string]any), "uuid")
	Want(t, c.Patch("/v1/imports/"+id+"/actions/lifecycle", Body("transition", "start")), 200)
	done := waitImport(t, c, id)
	if done["status"] != "completed" {
		t.Fatalf("import: %v", done)
	}
	wantCounts(t, done, 1, 0, 0, 6)
	wantLines(t, "failed lines", failedLines(t, c, id, ""),
		"1 <nil> <nil> :MALFORMED_REQUEST",
		"2 <nil> <nil> :PAYLOAD_TOO_LARGE",
		"3 <nil> <nil> :MALFORMED_REQUEST",
		"4 planet <nil> type:MALFORMED_REQUEST",
		"5 tag <nil> code:VALIDATION_FAILED",
		"6 <nil> <nil> :MALFORMED_REQUEST")
}

// TestCSVImportJob: a spreadsheet as an import job (inline, with a BOM and CRLF): rows applied,
// a bad cell failing its row with the column named, and a CSV without its code column failing the
// whole import with its reason.
func TestCSVImportJob(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	setup := `{"type":"locale","code":"de-DE"}
{"type":"typeGroup","code":"main","entityType":"product"}
{"type":"inputType","code":"title","typeGroup":"main","dataType":"text","isLocalizable":true}
{"type":"inputType","code":"weight","typeGroup":"main","dataType":"decimal"}
{"type":"category","code":"boots"}
`
	wantCounts(t, waitImport(t, c, Str(Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(setup)), 201).Obj(), "uuid")), 5, 0, 0, 0)
	sheet := "\ufeffcode,kind,categories,value:title@de-DE,value:weight\r\n" +
		"SKU-1,simple,boots,\"Stiefel, rot\",1.5\r\n" +
		"SKU-2,simple,boots,Stiefel blau,heavy\r\n" +
		"SKU-3,simple,,\"zwei\r\nZeilen\",\r\n"
	imp := Want(t, c.SendFile("POST", "/v1/imports?fileName=sheet.csv", "text/csv", []byte(sheet)), 201).Obj()
	if imp["format"] != "csv" {
		t.Errorf("format: %v", imp["format"])
	}
	done := waitImport(t, c, Str(imp, "uuid"))
	wantCounts(t, done, 2, 0, 0, 1)
	wantLines(t, "failed rows", failedLines(t, c, Str(imp, "uuid"), ""), "3 product SKU-2 value:weight:VALIDATION_FAILED")
	skus := Want(t, c.Get("/v1/products?codes%5Beq%5D=SKU-1&codes%5Beq%5D=SKU-3"), 200).Items()
	if len(skus) != 2 {
		t.Fatalf("products: %v", skus)
	}

	noCode := Want(t, c.SendFile("POST", "/v1/imports", "text/csv", []byte("sku,kind\nA,simple\n")), 201).Obj()
	failed := waitImport(t, c, Str(noCode, "uuid"))
	if failed["status"] != "failed" || !strings.Contains(Str(failed, "failureReason"), "code") {
		t.Errorf("CSV without code: %v", failed)
	}
}

// TestJobRetention: finished imports and exports older than the retention go with their failed
// lines, and their files are queued for the blob collector; running and recent ones stay.
func TestJobRetention(t *testing.T) {
	c, tenant := env.TenantClient(t)
	old := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(`{"type":"planet","code":"x"}`+"\n")), 201).Obj()
	recent := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(`{"type":"tag","code":"t"}`+"\n")), 201).Obj()
	waiting := Want(t, c.Post("/v1/imports", Body("format", "csv", "sizeBytes", 5)), 201).Obj()["import"].(map[string]any)
	waitImport(t, c, Str(old, "uuid"))
	waitImport(t, c, Str(recent, "uuid"))
	exp := Want(t, c.Post("/v1/exports", Body("format", "ndjson", "types", []string{"tag"})), 201).Obj()
	WaitFor(t, 60*time.Second, "export", func() bool {
		return Want(t, c.Get("/v1/exports/"+Str(exp, "uuid")), 200).Obj()["status"] == "completed"
	})
	ctx := context.Background()
	for _, q := range []string{
		`UPDATE imports SET finished_at = now() - interval '2 hours' WHERE tenant_id = $1 AND uuid = $2`,
		`UPDATE exports SET finished_at = now() - interval '2 hours' WHERE tenant_id = $1 AND uuid = $2`,
	} {
		id := Str(old, "uuid")
		if strings.Contains(q, "exports") {
			id = Str(exp, "uuid")
		}
		if _, err := pool.Exec(ctx, q, tenant, id); err != nil {
			t.Fatal(err)
		}
	}
	var keys []string
	rows, _ := pool.Query(ctx, `SELECT storage_key FROM imports WHERE tenant_id = $1 AND uuid = $2 UNION ALL
		SELECT storage_key FROM exports WHERE tenant_id = $1 AND uuid = $3`, tenant, Str(old, "uuid"), Str(exp, "uuid"))
	for rows.Next() {
		var k string
		_ = rows.Scan(&k)
		keys = append(keys, k)
	}
	if len(keys) != 2 {
		t.Fatalf("storage keys %v", keys)
	}
	exists := func(key string) bool {
		_, ok, err := env.Server.Blobs().Stat(ctx, key)
		if err != nil {
			t.Fatalf("stat %s: %v", key, err)
		}
		return ok
	}
	for _, k := range keys {
		if !exists(k) {
			t.Fatalf("the job's file %s is not in the store before retention", k)
		}
	}
	res, err := (&retention.Pruner{DB: env.Server.DB, Retention: time.Hour}).RunOnce(ctx)
	if err != nil || res.Jobs < 2 {
		t.Fatalf("retention: %+v %v", res, err)
	}
	Problem(t, "pruned import", c.Get("/v1/imports/"+Str(old, "uuid")), 404, "NOT_FOUND")
	Problem(t, "pruned export", c.Get("/v1/exports/"+Str(exp, "uuid")), 404, "NOT_FOUND")
	Want(t, c.Get("/v1/imports/"+Str(recent, "uuid")), 200)
	Want(t, c.Get("/v1/imports/"+Str(waiting, "uuid")), 200)
	if n := CountRows(t, pool, "import_lines", tenant, "import_uuid = '"+Str(old, "uuid")+"'"); n != 0 {
		t.Errorf("%d failed lines of the pruned import left", n)
	}
	// The files were queued for deletion with the rows; the server's collector (every second)
	// deletes them from the store and takes them out of the queue.
	WaitFor(t, 30*time.Second, "the pruned jobs' files deleted by the collector", func() bool {
		var queued int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM blob_deletions WHERE storage_key = ANY($1)`, keys).Scan(&queued); err != nil {
			t.Fatal(err)
		}
		return queued == 0 && !exists(keys[0]) && !exists(keys[1])
	})
	var recentKey string
	if err := pool.QueryRow(ctx, `SELECT storage_key FROM imports WHERE tenant_id = $1 AND uuid = $2`, tenant, Str(recent, "uuid")).Scan(&recentKey); err != nil {
		t.Fatal(err)
	}
	if !exists(recentKey) {
		t.Errorf("the recent import's file %s was deleted", recentKey)
	}
}

// TestImportRelatedNewProducts: new products that relate to each other in one file (each waiting
// for the other) are applied together, each line whole; a line whose target never appears still
// fails alone with UNRESOLVED_REFERENCE.
func TestImportRelatedNewProducts(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	file := `{"type":"product","code":"A","kind":"simple","relations":[{"relationType":"cross_sell","target":"B"}],"status":"active"}
{"type":"product","code":"B","kind":"simple","relations":[{"relationType":"cross_sell","target":"A"}]}
{"type":"product","code":"C","kind":"simple","relations":[{"relationType":"cross_sell","target":"NOPE"}]}
{"type":"productRelationType","code":"cross_sell","direction":"one_way"}
`
	imp := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(file)), 201).Obj()
	done := waitImport(t, c, Str(imp, "uuid"))
	wantCounts(t, done, 3, 0, 0, 1)
	wantLines(t, "failed lines", failedLines(t, c, Str(imp, "uuid"), ""), "3 product C relations[0].target:UNRESOLVED_REFERENCE")
	for code, other := range map[string]string{"A": "B", "B": "A"} {
		p := Want(t, c.Get("/v1/products?codes%5Beq%5D="+code), 200).Items()
		q := Want(t, c.Get("/v1/products?codes%5Beq%5D="+other), 200).Items()
		if len(p) != 1 || len(q) != 1 {
			t.Fatalf("products %s, %s: %v %v", code, other, p, q)
		}
		rel := Want(t, c.Get("/v1/products/"+Str(p[0], "uuid")+"/relations"), 200).Items()
		if len(rel) != 1 || rel[0]["targetProductUuid"] != q[0]["uuid"] {
			t.Errorf("%s relations %v, want one to %s", code, rel, other)
		}
	}
	if a := Want(t, c.Get("/v1/products?codes%5Beq%5D=A"), 200).Items()[0]; a["status"] != "active" {
		t.Errorf("A's status %v", a["status"])
	}
	// Imported again: nothing changes.
	again := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(file)), 201).Obj()
	wantCounts(t, waitImport(t, c, Str(again, "uuid")), 0, 0, 3, 1)
}

// TestImportsFairAcrossTenants: one running import per tenant, and the tenant whose last import
// started longest ago goes first: a tenant's second import waits for another tenant's first.
func TestImportsFairAcrossTenants(t *testing.T) {
	a, _ := env.TenantClient(t)
	b, _ := env.TenantClient(t)
	var file strings.Builder
	for i := range 30 {
		fmt.Fprintf(&file, `{"type":"tag","code":"t%d"}`+"\n", i)
	}
	var ids []string
	for range 3 {
		ids = append(ids, Str(Want(t, a.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(file.String())), 201).Obj(), "uuid"))
	}
	bID := Str(Want(t, b.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(file.String())), 201).Obj(), "uuid")
	started := map[string]time.Time{}
	for _, id := range ids {
		started[id] = TS(t, waitImport(t, a, id)["startedAt"])
	}
	started[bID] = TS(t, waitImport(t, b, bID)["startedAt"])
	// A's imports ran one after the other: each started after the one before finished.
	for i := 1; i < len(ids); i++ {
		prev := waitImport(t, a, ids[i-1])
		if started[ids[i]].Before(TS(t, prev["finishedAt"])) {
			t.Errorf("import %d of the tenant started at %v, before import %d finished at %v", i, started[ids[i]], i-1, prev["finishedAt"])
		}
	}
	// B's only import did not wait behind A's queue: it started before A's last one.
	if !started[bID].Before(started[ids[2]]) {
		t.Errorf("the other tenant's import started at %v, after the first tenant's third at %v", started[bID], started[ids[2]])
	}
}

// TestImportAnalyzesTheTablesItGrows: an import that creates products runs ANALYZE on the tables
// it grows once it has created 500 lines (and at each doubling), so that PostgreSQL plans the
// tenant's reads with statistics that know the tenant. Not parallel: no other test's import may
// analyze meanwhile (ANALYZE statements are counted apart from autovacuum's).
func TestImportAnalyzesTheTablesItGrows(t *testing.T) {
	c, _ := env.TenantClient(t)
	analyzed := func() int64 {
		var n int64
		if err := pool.QueryRow(t.Context(), `SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'product_input_values'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := analyzed()
	lines := strings.Split(togetherStructure, "\n")
	for i := 0; i < 1100; i++ {
		lines = append(lines, fmt.Sprintf(`{"type":"product","code":"A-%d","kind":"simple","categories":["cat-%d"],`+
			`"values":[{"inputType":"title","locale":"en-GB","value":"Thing %d"}]}`, i, i%3, i))
	}
	imp := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(strings.Join(lines, "\n")+"\n")), 201).Obj()
	wantCounts(t, waitImport(t, c, Str(imp, "uuid")), len(lines), 0, 0, 0)
	// 1 113 lines created: analyzed at 500 and at 1 000 (statistics are published within a second).
	WaitFor(t, 10*time.Second, "the import's ANALYZE in the statistics", func() bool { return analyzed() >= before+2 })
}
