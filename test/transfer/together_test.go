package transfer

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/gen/db"
	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/transfer"
)

// Lines applied together (server/transfer/wide.go): the lines of a batch run side by side and
// each family's writes of all of them go in one call. These tests hold that to the lines applied
// one by one: the same outcomes, the same catalog (its export), the same events in the same order,
// and a batch where one line fails is written by nobody, so that its lines applied one by one
// fail and succeed exactly as before.

const togetherStructure = `{"type":"locale","code":"de-DE"}
{"type":"locale","code":"en-GB"}
{"type":"typeGroup","code":"main","entityType":"product"}
{"type":"inputType","code":"title","typeGroup":"main","dataType":"text","isLocalizable":true}
{"type":"inputType","code":"description","typeGroup":"main","dataType":"text","isLocalizable":true}
{"type":"attribute","code":"color","status":"published","terms":[{"code":"red"},{"code":"blue"},{"code":"green"},{"code":"black"},{"code":"white"}]}
{"type":"attribute","code":"material","terms":[{"code":"leather"},{"code":"wool"}]}
{"type":"family","code":"footwear","attributes":[{"attribute":"color","appliesTo":"variant","isVariantAxis":true}]}
{"type":"category","code":"cat-0"}
{"type":"category","code":"cat-1"}
{"type":"category","code":"cat-2","parent":"cat-0"}
{"type":"tag","code":"tag-0"}
{"type":"tag","code":"tag-1"}`

// togetherFirst are new products: variant parents each followed by variants that name them (so
// applied in two waves), simple products reaching a status through a chain of moves.
func togetherFirst() []string {
	colors := []string{"red", "blue", "green", "black"}
	values := func(i int) string {
		return fmt.Sprintf(`[{"inputType":"title","locale":"de-DE","value":"Stiefel %d"},{"inputType":"title","locale":"en-GB","value":"Boot %d"},`+
			`{"inputType":"description","locale":"en-GB","value":"A boot"}]`, i, i)
	}
	var out []string
	for i := 0; i < 15; i++ {
		common := fmt.Sprintf(`"family":"footwear","categories":["cat-%d","cat-%d"],"tags":["tag-%d"],"values":%s`, i%3, (i+1)%3, i%2, values(i))
		if i%5 == 0 {
			out = append(out, fmt.Sprintf(`{"type":"product","code":"P-%d","kind":"variant_parent","attributes":{"material":["leather"]},%s}`, i, common))
		} else {
			out = append(out, fmt.Sprintf(`{"type":"product","code":"P-%d","kind":"variant","parent":"P-%d","attributes":{"color":[%q]},%s}`,
				i, i-i%5, colors[i%5-1], common))
		}
	}
	out = append(out,
		`{"type":"product","code":"S-1","kind":"simple","displayName":"Sock","status":"active","tags":["tag-0","tag-1"]}`,
		`{"type":"product","code":"S-2","kind":"simple","status":"inactive","categories":["cat-2"]}`,
	)
	return out
}

// togetherSecond changes some of them (links added and removed, values changed and deleted, a
// variant's axis term, a status, a field) and leaves one as it is.
var togetherSecond = []string{
	`{"type":"product","code":"P-1","categories":["cat-1","cat-2"],"values":[{"inputType":"title","locale":"de-DE","value":"Neu"},{"inputType":"description","locale":"en-GB","value":null}]}`,
	`{"type":"product","code":"P-2","family":"footwear","categories":["cat-2","cat-0"],"tags":["tag-0"]}`,
	`{"type":"product","code":"P-4","attributes":{"color":["white"]}}`,
	`{"type":"product","code":"P-5","displayName":"Parent five","attributes":{"material":["wool"]}}`,
	`{"type":"product","code":"S-1","tags":[],"status":"inactive"}`,
	`{"type":"product","code":"S-3","kind":"simple","values":[{"inputType":"title","locale":"en-GB","value":"Three"}]}`,
}

// applyTogether applies lines together in one transaction of tenant, failing the test when they
// could not be (why).
func applyTogether(t *testing.T, tenant string, lines []string) []transfer.Result {
	t.Helper()
	im := transfer.NewImporter(env.Server.DB, catalog.TransferKinds())
	ctx := transfer.WithCodes(reqctx.WithPrincipal(context.Background(), &reqctx.Principal{Tenant: tenant, Subject: "importer"}))
	var out []transfer.Result
	err := env.Server.DB.Tx(ctx, func(tx pgx.Tx, _ *db.Queries) error {
		raws := make([][]byte, len(lines))
		for i, l := range lines {
			raws[i] = []byte(l)
		}
		res, why, err := im.ApplyTogether(store.WithTx(ctx, tx), raws)
		if why != nil {
			t.Fatalf("the lines were not applied together: %v", why)
		}
		out = res
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// applyEach applies each line alone (its own transaction), failing the test on an error.
func applyEach(t *testing.T, apply func(string) transfer.Result, lines []string) []transfer.Result {
	t.Helper()
	out := make([]transfer.Result, len(lines))
	for i, l := range lines {
		out[i] = apply(l)
	}
	return out
}

// outcomes are results without their uuids: "product P-1 created".
func outcomes(rs []transfer.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = fmt.Sprintf("%s %s %s %v", r.Type, r.Code, r.Outcome, r.Errors)
	}
	return out
}

var uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// eventList is the tenant's events after the first skip, in the log's order (created_at, uuid),
// each "type payload" with its uuids named by their order of first appearance (#1, #2, …), so that
// two tenants' lists compare as their shapes.
func eventList(t *testing.T, tenant string, skip int) []string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT type, payload::text FROM events WHERE tenant_id = $1 ORDER BY created_at, uuid`, tenant)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	names := map[string]string{}
	var out []string
	for n := 0; rows.Next(); n++ {
		var typ, payload string
		if err := rows.Scan(&typ, &payload); err != nil {
			t.Fatal(err)
		}
		if n < skip {
			continue
		}
		out = append(out, typ+" "+uuidRe.ReplaceAllStringFunc(payload, func(u string) string {
			if names[u] == "" {
				names[u] = fmt.Sprintf("#%d", len(names)+1)
			}
			return names[u]
		}))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func countEvents(t *testing.T, tenant string) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM events WHERE tenant_id = $1`, tenant).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func wantSame(t *testing.T, what string, a, b []string) {
	t.Helper()
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("%s differ:\none by one (%d):\n%s\ntogether (%d):\n%s", what, len(a), strings.Join(a, "\n"), len(b), strings.Join(b, "\n"))
	}
}

// TestLinesTogetherMatchOneByOne: the same lines applied one by one in tenant A and together in
// tenant B give the same outcomes, the same export and the same events, in the same order.
func TestLinesTogetherMatchOneByOne(t *testing.T) {
	t.Parallel()
	_, a, applyA := importer(t)
	_, b, applyB := importer(t)
	for _, l := range strings.Split(togetherStructure, "\n") {
		wantOutcome(t, applyA(l), transfer.Created)
		wantOutcome(t, applyB(l), transfer.Created)
	}
	skipA, skipB := countEvents(t, a), countEvents(t, b)
	if skipA != skipB {
		t.Fatalf("the structure made %d events in A, %d in B", skipA, skipB)
	}
	for round, lines := range [][]string{togetherFirst(), togetherSecond, togetherSecond} {
		one := outcomes(applyEach(t, applyA, lines))
		together := outcomes(applyTogether(t, b, lines))
		wantSame(t, fmt.Sprintf("round %d: outcomes", round), one, together)
	}
	wantSameCatalogs(t, a, b, skipA, skipB, 100)
}

// wantSameCatalogs: tenants a (lines applied one by one) and b (together) export the same and
// logged the same events after their first skipA and skipB, at least `least` of them; b's search
// state is a fresh computation's.
func wantSameCatalogs(t *testing.T, a, b string, skipA, skipB, least int) {
	t.Helper()
	exA, _ := export(t, a, transfer.ExportOptions{})
	exB, _ := export(t, b, transfer.ExportOptions{})
	wantSame(t, "exports", strings.Split(exA, "\n"), strings.Split(exB, "\n"))
	evA, evB := eventList(t, a, skipA), eventList(t, b, skipB)
	if len(evA) < least {
		t.Errorf("only %d events, want at least %d", len(evA), least)
	}
	wantSame(t, "events", evA, evB)
	WantSearchFresh(t, pool, b)
}

// TestLinesTogetherOneBadLine: lines applied together where one fails write nothing at all (no row,
// no event); applied one by one afterwards (as the import job does), exactly that line fails, with
// its own error, and every other line is applied.
func TestLinesTogetherOneBadLine(t *testing.T) {
	t.Parallel()
	c, tenant, apply := importer(t)
	for _, l := range strings.Split(togetherStructure, "\n") {
		wantOutcome(t, apply(l), transfer.Created)
	}
	before := countEvents(t, tenant)
	lines := togetherFirst()
	lines[7] = `{"type":"product","code":"BAD","kind":"flying","categories":["cat-0"]}`
	im := transfer.NewImporter(env.Server.DB, catalog.TransferKinds())
	ctx := transfer.WithCodes(reqctx.WithPrincipal(context.Background(), &reqctx.Principal{Tenant: tenant, Subject: "importer"}))
	raws := make([][]byte, len(lines))
	for i, l := range lines {
		raws[i] = []byte(l)
	}
	err := env.Server.DB.Tx(ctx, func(tx pgx.Tx, _ *db.Queries) error {
		res, why, err := im.ApplyTogether(store.WithTx(ctx, tx), raws)
		if why == nil || res != nil {
			t.Errorf("lines with a bad one applied together: %v", outcomes(res))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	WantTotal(t, c, "/v1/products?size=100", 0)
	if n := countEvents(t, tenant); n != before {
		t.Errorf("%d events after the lines rolled back, want %d", n, before)
	}
	results := applyEach(t, apply, lines)
	for i, res := range results {
		if i == 7 {
			wantFailed(t, res, "kind", "MALFORMED_REQUEST")
			continue
		}
		wantOutcome(t, res, transfer.Created)
	}
	WantTotal(t, c, "/v1/products?size=100", len(lines)-1)
}

// TestImportJobTogetherMatchesOneByOne: an import job (its batches applied together) of a file
// with a line failing on its own and one referring to a code that never comes lists exactly those
// two lines, applies every other one, and leaves the catalog the same lines applied one by one
// (Importer.Run) leave.
func TestImportJobTogetherMatchesOneByOne(t *testing.T) {
	t.Parallel()
	lines := append(strings.Split(togetherStructure, "\n"), togetherFirst()...)
	lines = append(lines, togetherSecond...)
	bad := len(strings.Split(togetherStructure, "\n")) + 9 // a variant in the middle of a batch
	lines[bad] = `{"type":"product","code":"BAD","kind":"flying","categories":["cat-0"]}`
	lines = append(lines, `{"type":"product","code":"LOST","kind":"simple","categories":["nowhere"]}`)
	for i := 0; i < 40; i++ {
		lines = append(lines, fmt.Sprintf(`{"type":"product","code":"M-%d","kind":"simple","status":"active","categories":["cat-%d"],"tags":["tag-%d"],`+
			`"values":[{"inputType":"title","locale":"en-GB","value":"Thing %d"}]}`, i, i%3, i%2, i))
	}
	file := strings.Join(lines, "\n") + "\n"

	_, a := env.TenantClient(t)
	im := transfer.NewImporter(env.Server.DB, catalog.TransferKinds())
	var failedA []string
	if _, err := im.Run(tenantCtx(a), strings.NewReader(file), func(r transfer.LineResult) {
		failedA = append(failedA, fmt.Sprintf("%d %s %s %v", r.Line, r.Type, r.Code, r.Errors[0].Code))
	}); err != nil {
		t.Fatal(err)
	}

	c, b := env.TenantClient(t)
	together := transfer.LinesTogether()
	imp := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(file)), 201).Obj()
	id := Str(imp, "uuid")
	done := waitImport(t, c, id)
	if done["status"] != "completed" {
		t.Fatalf("import: %v", done)
	}
	if transfer.LinesTogether() == together {
		t.Errorf("no line of the import was applied together")
	}
	wantLines(t, "failed lines (one by one)", failedA, fmt.Sprintf("%d product BAD MALFORMED_REQUEST", bad+1),
		fmt.Sprintf("%d product LOST UNRESOLVED_REFERENCE", len(lines)-40))
	wantLines(t, "failed lines (job)", failedLines(t, c, id, ""), fmt.Sprintf("%d product BAD kind:MALFORMED_REQUEST", bad+1),
		fmt.Sprintf("%d product LOST categories[0]:UNRESOLVED_REFERENCE", len(lines)-40))
	exA, _ := export(t, a, transfer.ExportOptions{})
	exB, _ := export(t, b, transfer.ExportOptions{})
	wantSame(t, "exports", strings.Split(exA, "\n"), strings.Split(exB, "\n"))
	var js []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(exB), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		js = append(js, m)
	}
	if len(js) < 70 {
		t.Errorf("the export has %d lines", len(js))
	}
}
