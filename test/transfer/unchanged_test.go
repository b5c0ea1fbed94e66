package transfer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"

	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/transfer"
)

// Lines found unchanged without being applied (server/transfer/unchanged.go): a product line of a
// batch applied together that certainly changes nothing is answered unchanged from a comparison
// with the stored product. These tests hold it to the lines applied one by one (which never
// compare): the same outcomes, the same catalog, the same events, and they name which lines must
// be skipped and which must run.

// probe is a line and whether it must be found unchanged without being applied.
type probe struct {
	line    string
	skipped bool
}

// TestUnchangedLinesSkipped: probes against the rich catalog, in batches, applied one by one in A
// and together in B.
func TestUnchangedLinesSkipped(t *testing.T) {
	t.Parallel()
	_, a, _ := load(t, richCatalog)
	_, b, _ := load(t, richCatalog)
	applyA := importerOf(t, a)
	skipA, skipB := countEvents(t, a), countEvents(t, b)
	batches := [][]probe{
		// Every field as stored, in other orders and spellings that mean the same: skipped.
		{
			{`{"type":"product","code":"BOOT-1","displayName":"Boot \"One\"","kind":"variant_parent","family":"footwear","brand":"acme","status":"active",` +
				`"categories":["shoes","boots"],"tags":["sale"],"attributes":{"size":["m","s"]},` +
				`"values":[{"inputType":"price","channel":"web","value":{ "amount": "89.90", "currency": "EUR" }},{"inputType":"title","locale":"en-GB","channel":null,"value":"Boot"}],` +
				`"assets":[{"asset":"boot-side","assetType":"gallery","displayPriority":3},{"asset":"boot-front"}],` +
				`"publications":[{"channel":"app"},{"channel":"web","status":"published"}]}`, true},
			// Names BOOT-1, whose line comes first and is skipped too.
			{`{"type":"product","code":"BOOT-1-BLUE","parent":"BOOT-1","family":"footwear","attributes":{"color":{"terms":["blue"],"isVariantAxis":true}}}`, true},
			{`{"type":"product","code":"SOCK-1","tags":["sale","new"],"values":[{"inputType":"vegan","value":true},{"inputType":"title","locale":"de-DE","value":"Sock\u0065"}]}`, true},
			{`{"type":"product","code":"LACE-1","status":"inactive","publications":[{"channel":"app"}],"brand":null}`, true},
			{`{"type":"product","code":"OLD-1"}`, true},
		},
		// Changes, and lines the comparison does not decide: applied, whatever their outcome.
		{
			{`{"type":"product","code":"BOOT-1","displayName":"Boot Two"}`, false},
			// Unchanged itself, but it names BOOT-1, changed by an earlier line of the batch.
			{`{"type":"product","code":"BOOT-1-RED","parent":"BOOT-1","status":"active"}`, false},
			{`{"type":"product","code":"SOCK-1","values":[{"inputType":"vegan","value":false}]}`, false},
			// The stored relation is not compared: applied (unchanged).
			{`{"type":"product","code":"LACE-1","relations":[{"relationType":"pair","target":"SOCK-1"}]}`, false},
			{`{"type":"product","code":"OLD-1","displayName":"Old one"}`, false},
		},
		{
			// Exact sets and maps: a missing member changes them.
			{`{"type":"product","code":"BOOT-1","categories":["shoes"]}`, false},
			{`{"type":"product","code":"BOOT-1-BLUE","attributes":{}}`, false},
			// A code repeated in a set: not decided by the comparison (applied).
			{`{"type":"product","code":"SOCK-1","values":[{"inputType":"vegan","value":true}],"tags":["new","sale","sale"]}`, false},
			// Every field given as stored, the publication's status too: skipped.
			{`{"type":"product","code":"LACE-1","kind":"simple","displayName":"LACE-1","status":"inactive","categories":[],"publications":[{"channel":"app","status":"draft"}]}`, true},
			// A structure line, then a product line naming it: the product line waits for it.
			{`{"type":"category","code":"archive","status":"inactive"}`, false},
			{`{"type":"product","code":"OLD-1","categories":["archive"]}`, false},
		},
		{
			// The same product twice in a batch: neither is compared (the second restores it).
			{`{"type":"product","code":"SOCK-1","status":"inactive"}`, false},
			{`{"type":"product","code":"SOCK-1","status":"active"}`, false},
			// A value deleted (null) and a value given as stored.
			{`{"type":"product","code":"BOOT-1","values":[{"inputType":"price","channel":"web","value":null}]}`, false},
			{`{"type":"product","code":"BOOT-1-RED","values":[{"inputType":"title","locale":"en-GB","value":"Red boot"}]}`, true},
		},
	}
	for n, batch := range batches {
		lines := make([]string, len(batch))
		for i, p := range batch {
			lines[i] = p.line
		}
		one := applyEach(t, applyA, lines)
		together := applyTogether(t, b, lines)
		wantSame(t, fmt.Sprintf("batch %d: outcomes", n), outcomes(one), outcomes(together))
		for i, p := range batch {
			if one[i].Skipped {
				t.Errorf("batch %d line %d applied alone says it was skipped", n, i)
			}
			if together[i].Skipped != p.skipped {
				t.Errorf("batch %d line %d (%s, %s): skipped %v, want %v", n, i, p.line, together[i].Outcome, together[i].Skipped, p.skipped)
			}
			if together[i].Skipped && (together[i].Outcome != transfer.Unchanged || together[i].UUID == uuid.Nil) {
				t.Errorf("batch %d line %d: skipped as %s %s", n, i, together[i].Outcome, together[i].UUID)
			}
		}
	}
	wantSameCatalogs(t, a, b, skipA, skipB, 8) // the changing lines' events
}

// TestReimportJobSkipsUnchangedLines: an import job of a file already imported finds its product
// lines unchanged without applying them, and emits no resource event.
func TestReimportJobSkipsUnchangedLines(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	// The structure first: a product line naming a code that a line of its batch defines is
	// applied after that line, and a structure line is never skipped.
	structure := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(togetherStructure+"\n")), 201).Obj()
	wantCounts(t, waitImport(t, c, Str(structure, "uuid")), len(strings.Split(togetherStructure, "\n")), 0, 0, 0)
	lines := togetherFirst()
	file := strings.Join(lines, "\n") + "\n"
	first := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(file)), 201).Obj()
	wantCounts(t, waitImport(t, c, Str(first, "uuid")), len(lines), 0, 0, 0)
	events := countEvents(t, tenant)
	skipped := transfer.LinesSkipped()
	again := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(file)), 201).Obj()
	wantCounts(t, waitImport(t, c, Str(again, "uuid")), 0, 0, len(lines), 0)
	if got := transfer.LinesSkipped() - skipped; got < int64(len(lines)) {
		t.Errorf("%d lines skipped by the re-import, want at least its %d lines", got, len(lines))
	}
	var types []string
	rows, err := pool.Query(t.Context(), `SELECT type FROM events WHERE tenant_id = $1 ORDER BY created_at, uuid OFFSET $2`, tenant, events)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var typ string
		if err := rows.Scan(&typ); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(typ, "import.") {
			types = append(types, typ)
		}
	}
	rows.Close()
	if len(types) > 0 {
		t.Errorf("the re-import emitted %v", types)
	}
}
