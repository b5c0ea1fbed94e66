package accept_transfer

import (
	"reflect"
	"strings"
	"testing"
)

// csvBase is the fixture with an attribute with terms and a family with a variant axis.
var csvBase = append(append([]string{}, fixture...),
	`{"type":"attribute","code":"color","terms":[{"code":"red"},{"code":"blue"}]}`,
	`{"type":"family","code":"fw","attributes":[{"attribute":"color","requirementLevel":"optional","appliesTo":"variant","isVariantAxis":true}]}`,
)

// termsOf is a product's term uuids of its attribute with uuid attr.
func (a *api) termsOf(productUUID, attrUUID string) []string {
	a.t.Helper()
	for _, pa := range a.all("/v1/products/" + productUUID + "/attributes") {
		if str(pa, "attributeUuid") == attrUUID {
			return fieldSet(a.all("/v1/products/"+productUUID+"/attributes/"+str(pa, "uuid")+"/terms"), "termUuid")
		}
	}
	return nil
}

// TestCSVImport: the CSV columns, a BOM, line numbers of rows spanning lines, errors naming row and
// column, an empty cell leaving a value alone and #NULL deleting it.
func TestCSVImport(t *testing.T) {
	a := newTenant(t)
	counts(t, a.importNDJSON(csvBase...), len(csvBase), 0, 0, 0)
	x := a.fixtureIDs()
	color := a.uuidOf("/v1/attributes", "color")
	terms := map[string]string{}
	for _, tm := range a.all("/v1/attributes/" + color + "/terms") {
		terms[str(tm, "code")] = str(tm, "uuid")
	}
	fw := a.uuidOf("/v1/families", "fw")

	csv := "\ufeffcode,kind,family,parent,brand,status,categories,tags,attribute:color,value:weight,value:title@de-DE,value:weight#web,value:title@de-DE#web,publication:web\r\n" +
		"C1,simple,,,acme,active,boots|shoes,sale|new,red|blue,7,\"Zeile\nzwei\",8,Web DE,published\r\n" + // lines 2-3
		"C2,simple,,,nope,,,,,,,,,\r\n" + // line 4: unknown brand
		"C3,simple,,,,,,,,notanumber,,,,\r\n" + // line 5: bad value
		"V1,variant_parent,fw,,,,,,,,,,,\r\n" + // line 6
		"V1-R,variant,fw,V1,,,,,red,,,,,\r\n" // line 7
	im := a.importCSV(csv)
	counts(t, im, 3, 0, 0, 2)
	c1 := a.product("C1")
	if c1.brandUUID != x.acme || c1.status != "active" {
		t.Errorf("C1 brand %q status %q", c1.brandUUID, c1.status)
	}
	if !reflect.DeepEqual(c1.categories, sorted(x.boots, x.shoes)) || !reflect.DeepEqual(c1.tags, sorted(x.sale, x.neu)) {
		t.Errorf("C1 categories %v tags %v", c1.categories, c1.tags)
	}
	if got := a.termsOf(c1.uuid, color); !reflect.DeepEqual(got, sorted(terms["red"], terms["blue"])) {
		t.Errorf("C1 color terms %v, want red and blue", got)
	}
	if len(c1.values) != 4 || !numEq(c1.values[x.weight+"||"], 7) || !numEq(c1.values[x.weight+"|"+x.web+"|"], 8) ||
		c1.values[x.title+"||"+x.de] != "Zeile\nzwei" || c1.values[x.title+"|"+x.web+"|"+x.de] != "Web DE" {
		t.Errorf("C1 values %v", c1.values)
	}
	pubs := a.all("/v1/products/" + c1.uuid + "/publications")
	if len(pubs) != 1 || str(pubs[0], "channelUuid") != x.web || str(pubs[0], "status") != "published" {
		t.Errorf("C1 publications %v", pubs)
	}
	v1 := a.mustCode("/v1/products", "V1")
	vr := a.mustCode("/v1/products", "V1-R")
	if str(v1, "kind") != "variant_parent" || str(v1, "familyUuid") != fw || str(vr, "kind") != "variant" || str(vr, "parentUuid") != str(v1, "uuid") {
		t.Errorf("variants: V1 %v V1-R %v", v1, vr)
	}
	ls := a.lines(str(im, "uuid"), "")
	byLine := map[int]map[string]any{}
	for _, l := range ls {
		byLine[int(num(l, "line"))] = l
	}
	if len(ls) != 2 {
		t.Errorf("failed lines %v, want lines 4 and 5", ls)
	}
	checkErr := func(n int, code, field, errCode string) {
		t.Helper()
		l := byLine[n]
		if l == nil {
			t.Errorf("CSV row at line %d not listed (the header is line 1, a row starts where it starts): %v", n, ls)
			return
		}
		if str(l, "code") != code || str(l, "type") != "product" || str(l, "status") != "failed" {
			t.Errorf("line %d: %v", n, l)
		}
		errs, _ := l["errors"].([]any)
		for _, e := range errs {
			m, _ := e.(map[string]any)
			if str(m, "field") == field && (errCode == "" || str(m, "code") == errCode) {
				return
			}
		}
		t.Errorf("line %d errors %v, want one naming column %q (%s)", n, l["errors"], field, errCode)
	}
	checkErr(4, "C2", "brand", "UNRESOLVED_REFERENCE")
	checkErr(5, "C3", "value:weight", "")

	// Re-importing is free.
	counts(t, a.importCSV(csv), 0, 0, 3, 2)

	// An empty cell leaves a value alone, #NULL deletes it; sets stay exact.
	counts(t, a.importCSV("code,value:weight,value:weight#web,tags,value:title@de-DE\nC1,,#NULL,sale,\n"), 0, 1, 0, 0)
	c1 = a.product("C1")
	if _, ok := c1.values[x.weight+"|"+x.web+"|"]; ok || !numEq(c1.values[x.weight+"||"], 7) || c1.values[x.title+"||"+x.de] != "Zeile\nzwei" || len(c1.values) != 3 {
		t.Errorf("C1 values after empty and #NULL cells: %v", c1.values)
	}
	if !reflect.DeepEqual(c1.tags, []string{x.sale}) || c1.brandUUID != x.acme {
		t.Errorf("C1 tags %v brand %q after a CSV without brand column", c1.tags, c1.brandUUID)
	}
	if got := a.termsOf(c1.uuid, color); !reflect.DeepEqual(got, sorted(terms["red"], terms["blue"])) {
		t.Errorf("C1 color terms changed by a CSV without that column: %v", got)
	}
	if !strings.Contains(csv, "\ufeff") {
		t.Fatal("the CSV lost its BOM")
	}
}
