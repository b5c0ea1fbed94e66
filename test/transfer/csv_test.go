package transfer

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/transfer"
)

// memOpen opens file at an offset.
func memOpen(file string) func(context.Context, int64) (io.ReadCloser, error) {
	return func(_ context.Context, off int64) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(file[off:])), nil
	}
}

// csvRow is a row's outcome: its line number and result (errors named by column).
type csvRow struct {
	no  int64
	res transfer.Result
}

// csvTenant is a tenant with the structure the CSV files below refer to, its REST client and a
// function importing a CSV file from a position up to stop rows (0: all) as a job would: each
// row applied by the merging importer, a row that cannot be read failing alone.
func csvTenant(t *testing.T) (*Client, string, func(file string, start transfer.Position, stop int) ([]csvRow, transfer.Position)) {
	t.Helper()
	c, tenant, apply := importer(t)
	for _, l := range []string{
		`{"type":"locale","code":"de-DE"}`, `{"type":"locale","code":"en-GB"}`,
		`{"type":"channel","code":"web","locales":["de-DE"]}`, `{"type":"channel","code":"app"}`,
		`{"type":"typeGroup","code":"main","entityType":"product"}`,
		`{"type":"inputType","code":"title","typeGroup":"main","dataType":"text","isLocalizable":true}`,
		`{"type":"inputType","code":"desc","typeGroup":"main","dataType":"rich_text","isLocalizable":true}`,
		`{"type":"inputType","code":"weight","typeGroup":"main","dataType":"decimal"}`,
		`{"type":"inputType","code":"price","typeGroup":"main","dataType":"money"}`,
		`{"type":"inputType","code":"stock","typeGroup":"main","dataType":"integer"}`,
		`{"type":"inputType","code":"launch","typeGroup":"main","dataType":"date"}`,
		`{"type":"inputType","code":"released","typeGroup":"main","dataType":"date_time"}`,
		`{"type":"inputType","code":"fresh","typeGroup":"main","dataType":"boolean"}`,
		`{"type":"inputType","code":"site","typeGroup":"main","dataType":"url"}`,
		`{"type":"inputType","code":"specs","typeGroup":"main","dataType":"json"}`,
		`{"type":"attribute","code":"color","status":"published","terms":[{"code":"red"},{"code":"blue"}]}`,
		`{"type":"attribute","code":"size","status":"published","terms":[{"code":"s"},{"code":"m"}]}`,
		`{"type":"category","code":"boots"}`, `{"type":"category","code":"sale"}`,
		`{"type":"tag","code":"summer"}`, `{"type":"tag","code":"winter"}`,
		`{"type":"brand","code":"acme"}`, `{"type":"family","code":"footwear"}`,
	} {
		wantOutcome(t, apply(l), transfer.Created)
	}
	ctx := reqctx.WithPrincipal(context.Background(), &reqctx.Principal{Tenant: tenant, Subject: "importer"})
	im := transfer.NewImporter(env.Server.DB, catalog.TransferKinds()).Merging()
	return c, tenant, func(file string, start transfer.Position, stop int) ([]csvRow, transfer.Position) {
		t.Helper()
		src, err := transfer.CSV(ctx, memOpen(file), start, transfer.InputDataTypes(env.Server.DB))
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		var rows []csvRow
		end := start
		for stop == 0 || len(rows) < stop {
			l, err := src.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			res := transfer.Result{Outcome: transfer.Failed, Errors: l.Fail}
			if l.Fail == nil {
				if res, err = im.Apply(ctx, l.Raw); err != nil {
					t.Fatal(err)
				}
				res.Errors = l.Rename(res.Errors)
			}
			rows, end = append(rows, csvRow{no: l.No, res: res}), l.End
		}
		return rows, end
	}
}

// spreadsheet is a spreadsheet's "CSV UTF-8" export: a BOM, CRLF, quoted cells with commas,
// quotes and line breaks, every column form.
const spreadsheet = "\xEF\xBB\xBFcode,kind,family,parent,brand,status,categories,tags,attribute:color,attribute:size," +
	"value:title@de-DE,value:title@en-GB,value:title@de-DE#web,value:desc@de-DE,value:weight,value:weight#web,value:price#web,value:stock," +
	"value:launch,value:released,value:fresh,value:site,value:specs,publication:web,publication:app\r\n" +
	// line 2-3: a cell over two lines
	`BOOT-1,simple,footwear,#NULL,acme,active,boots|sale,summer,red,,"Stiefel, rot",Boot,Stiefel (Web),"<p>Ein ""guter""` + "\r\n" + `Stiefel</p>",` +
	`1.5,1.25,89.90 EUR,12,2024-03-01,2024-03-01T10:00:00Z,TRUE,https://example.com/boot,"{""sole"":""rubber""}",published,` + "\r\n" +
	"SOCK-1,simple,,,,,sale,winter|summer,blue,s | m,Socke,,,,,,,,,,false,,,,draft\r\n" +
	// line 5: a cell that is not a decimal fails the row alone
	"BAD-1,simple,,,,,,,,,,,,,heavy,,,,,,,,,,\r\n" +
	// line 6: a category that does not exist: the importer's error, named by column
	"REF-1,simple,,,,,boots|nope,,,,,,,,,,,,,,,,,,\r\n" +
	// line 7: a date the input type refuses: the importer's error on values[1].value
	"DATE-1,simple,,,,,,,,,Datum,,,,,,,,2024-02-30,,,,,,\r\n"

func TestCSVImport(t *testing.T) {
	t.Parallel()
	c, tenant, importCSV := csvTenant(t)

	// Read half the file, then resume at the last row's end as a job does after a restart.
	first, end := importCSV(spreadsheet, transfer.Position{}, 2)
	rest, _ := importCSV(spreadsheet, end, 0)
	rows := append(first, rest...)
	var nos []int64
	for _, r := range rows {
		nos = append(nos, r.no)
	}
	if !reflect.DeepEqual(nos, []int64{2, 4, 5, 6, 7}) {
		t.Fatalf("rows at lines %v, want 2 4 5 6 7", nos)
	}
	wantOutcome(t, rows[0].res, transfer.Created)
	wantOutcome(t, rows[1].res, transfer.Created)
	wantFailed(t, rows[2].res, "value:weight", "VALIDATION_FAILED")
	wantFailed(t, rows[3].res, "categories", "UNRESOLVED_REFERENCE")
	wantFailed(t, rows[4].res, "value:launch", "VALIDATION_FAILED")
	for _, code := range []string{"BAD-1", "REF-1", "DATE-1"} {
		if got := Want(t, c.Get("/v1/products"+Q("codes[eq]", code)), 200).Items(); len(got) != 0 {
			t.Errorf("a failed row created %s", code)
		}
	}

	// Read back over REST.
	boot := rows[0].res.UUID.String()
	p := Want(t, c.Get("/v1/products/"+boot), 200).Obj()
	if p["code"] != "BOOT-1" || p["kind"] != "simple" || p["status"] != "active" || p["familyUuid"] != uuidByCode(t, c, "/v1/families", "footwear") ||
		p["brandUuid"] != uuidByCode(t, c, "/v1/brands", "acme") || p["parentUuid"] != nil {
		t.Errorf("BOOT-1: %v", p)
	}
	st := readProduct(t, c, boot)
	want := productState{
		categories: []string{"boots", "sale"}, tags: []string{"summer"},
		attributes: map[string][]string{"color": {"red"}},
		values: map[string]string{
			"title@de-DE": `"Stiefel, rot"`, "title@en-GB": `"Boot"`, "title@de-DE#web": `"Stiefel (Web)"`, "desc@de-DE": `"<p>Ein \"guter\"\r\nStiefel</p>"`,
			"weight": `"1.5"`, "weight#web": `"1.25"`, "price#web": `{"amount":"89.90","currency":"EUR"}`, "stock": `12`,
			"launch": `"2024-03-01"`, "released": `"2024-03-01T10:00:00Z"`, "fresh": `true`, "site": `"https://example.com/boot"`,
			"specs": `{"sole":"rubber"}`,
		},
		publications: map[string]string{"web": "published"},
	}
	want.check(t, "BOOT-1", st)
	sock := rows[1].res.UUID.String()
	wantSock := productState{categories: []string{"sale"}, tags: []string{"summer", "winter"},
		attributes: map[string][]string{"color": {"blue"}, "size": {"m", "s"}},
		values:     map[string]string{"title@de-DE": `"Socke"`, "fresh": `false`}, publications: map[string]string{"app": "draft"}}
	wantSock.check(t, "SOCK-1", readProduct(t, c, sock))

	// The same file again changes nothing: no event.
	log := NewEventLog(pool, tenant).Skip(t)
	again, _ := importCSV(spreadsheet, transfer.Position{}, 0)
	wantOutcome(t, again[0].res, transfer.Unchanged)
	wantOutcome(t, again[1].res, transfer.Unchanged)
	log.Expect(t, "the same file again")

	// Partial columns: an empty cell leaves its field alone, #NULL deletes or empties it, and a
	// column touches its own attribute, value or channel only.
	partial := "code,brand,categories,attribute:size,value:weight,value:title@de-DE,publication:web\n" +
		"BOOT-1,#NULL,,,#NULL,,unpublished\n" +
		"SOCK-1,,#NULL,#NULL,,Socke,\n"
	rows, _ = importCSV(partial, transfer.Position{}, 0)
	wantOutcome(t, rows[0].res, transfer.Updated)
	wantOutcome(t, rows[1].res, transfer.Updated)
	if p := Want(t, c.Get("/v1/products/"+boot), 200).Obj(); p["brandUuid"] != nil || p["familyUuid"] == nil || p["status"] != "active" {
		t.Errorf("BOOT-1 after the partial file: %v", p)
	}
	delete(want.values, "weight")
	want.publications["web"] = "unpublished"
	want.check(t, "BOOT-1 after the partial file", readProduct(t, c, boot))
	wantSock.categories, wantSock.attributes = nil, map[string][]string{"color": {"blue"}}
	wantSock.check(t, "SOCK-1 after the partial file", readProduct(t, c, sock))

	// #NULL in a publication column deletes that channel's publication, no other.
	rows, _ = importCSV("code,publication:web\nBOOT-1,#NULL\nSOCK-1,#NULL\n", transfer.Position{}, 0)
	wantOutcome(t, rows[0].res, transfer.Updated)
	wantOutcome(t, rows[1].res, transfer.Unchanged)
	want.publications = map[string]string{}
	want.check(t, "BOOT-1 without its web publication", readProduct(t, c, boot))
	wantSock.check(t, "SOCK-1 untouched", readProduct(t, c, sock))

	// The importer's errors on a row's columns: a publication refused by its lifecycle.
	rows, _ = importCSV("code,status,publication:app\nSOCK-1,,published\n", transfer.Position{}, 0)
	wantFailed(t, rows[0].res, "publication:app", "REQUIREMENTS_NOT_MET")
	rows, _ = importCSV("code,kind\n,simple\n", transfer.Position{}, 0)
	wantFailed(t, rows[0].res, "code", "VALIDATION_FAILED")
	rows, _ = importCSV("code,value:colour\nSOCK-1,x\n", transfer.Position{}, 0)
	wantFailed(t, rows[0].res, "value:colour", "UNRESOLVED_REFERENCE")
}

func TestCSVFileFailsWithoutCode(t *testing.T) {
	t.Parallel()
	_, tenant := env.TenantClient(t)
	ctx := reqctx.WithPrincipal(context.Background(), &reqctx.Principal{Tenant: tenant, Subject: "importer"})
	for _, file := range []string{"kind,family\r\nsimple,footwear\r\n", "code,code\n", "code,title\n", "code,attribute:\xff\n"} {
		_, err := transfer.CSV(ctx, memOpen(file), transfer.Position{}, transfer.InputDataTypes(env.Server.DB))
		var fe *transfer.FileError
		if !errors.As(err, &fe) || fe.Reason == "" {
			t.Errorf("%q: %v, want a FileError", file, err)
		}
	}
}

// productState is a product as codes: its sets, attributes, values by column and publications.
type productState struct {
	categories, tags []string
	attributes       map[string][]string
	values           map[string]string // "inputType@locale#channel" → the value's JSON
	publications     map[string]string // channel → status
}

func (want productState) check(t *testing.T, what string, got productState) {
	t.Helper()
	if !sameSet(got.categories, want.categories...) || !sameSet(got.tags, want.tags...) {
		t.Errorf("%s: categories %v tags %v, want %v %v", what, got.categories, got.tags, want.categories, want.tags)
	}
	if len(got.attributes) != len(want.attributes) {
		t.Errorf("%s: attributes %v, want %v", what, got.attributes, want.attributes)
	}
	for a, terms := range want.attributes {
		if !sameSet(got.attributes[a], terms...) {
			t.Errorf("%s: attribute %s %v, want %v", what, a, got.attributes[a], terms)
		}
	}
	if !reflect.DeepEqual(got.values, want.values) {
		t.Errorf("%s: values\n%v\nwant\n%v", what, got.values, want.values)
	}
	if len(got.publications)+len(want.publications) > 0 && !reflect.DeepEqual(got.publications, want.publications) {
		t.Errorf("%s: publications %v, want %v", what, got.publications, want.publications)
	}
}

func uuidByCode(t *testing.T, c *Client, path, code string) string {
	t.Helper()
	for _, it := range Want(t, c.Get(path+Q("size", "100")), 200).Items() {
		if it["code"] == code {
			return Str(it, "uuid")
		}
	}
	t.Fatalf("no %s in %s", code, path)
	return ""
}

// readProduct reads a product over REST as codes.
func readProduct(t *testing.T, c *Client, id string) productState {
	t.Helper()
	codes := map[string]string{}
	for _, path := range []string{"/v1/categories", "/v1/tags", "/v1/input-types", "/v1/locales", "/v1/channels", "/v1/attributes"} {
		for _, it := range Want(t, c.Get(path+Q("size", "100")), 200).Items() {
			codes[Str(it, "uuid")] = Str(it, "code")
			if path == "/v1/attributes" {
				for _, tm := range Want(t, c.Get(path+"/"+Str(it, "uuid")+"/terms"), 200).Items() {
					codes[Str(tm, "uuid")] = Str(tm, "code")
				}
			}
		}
	}
	base := "/v1/products/" + id
	var s productState
	for _, l := range Want(t, c.Get(base+"/categories"+Q("size", "100")), 200).Items() {
		s.categories = append(s.categories, codes[Str(l, "categoryUuid")])
	}
	for _, l := range Want(t, c.Get(base+"/tags"+Q("size", "100")), 200).Items() {
		s.tags = append(s.tags, codes[Str(l, "tagUuid")])
	}
	s.attributes = map[string][]string{}
	for _, pa := range Want(t, c.Get(base+"/attributes"), 200).Items() {
		terms := []string{}
		for _, pt := range Want(t, c.Get(base+"/attributes/"+Str(pa, "uuid")+"/terms"), 200).Items() {
			terms = append(terms, codes[Str(pt, "termUuid")])
		}
		s.attributes[codes[Str(pa, "attributeUuid")]] = terms
	}
	s.values = map[string]string{}
	for _, v := range Want(t, c.Get(base+"/input-values"+Q("size", "100")), 200).Items() {
		key := codes[Str(v, "inputTypeUuid")]
		if l, ok := v["localeUuid"].(string); ok {
			key += "@" + codes[l]
		}
		if ch, ok := v["channelUuid"].(string); ok {
			key += "#" + codes[ch]
		}
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v["value"])
		s.values[key] = strings.TrimSpace(b.String())
	}
	s.publications = map[string]string{}
	for _, p := range Want(t, c.Get(base+"/publications"), 200).Items() {
		s.publications[codes[Str(p, "channelUuid")]] = Str(p, "status")
	}
	return s
}
