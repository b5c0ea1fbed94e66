package product_attributes

import (
	"context"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/crud"
)

// wantInUse checks a 409 IN_USE problem: meta.referencedBy is a JSON array holding exactly kinds
// (sorted), and nothing of the schema (constraint or table names) shows.
func wantInUse(t *testing.T, what string, r Resp, kinds ...string) {
	t.Helper()
	p := WantProblem(t, r, 409, "IN_USE")
	by, ok := Strings(Meta(p)["referencedBy"])
	if !ok || !slices.Equal(by, kinds) {
		t.Errorf("%s: meta.referencedBy %#v, want %v", what, Meta(p)["referencedBy"], kinds)
	}
	for _, internal := range []string{"_fkey", "family_links", "product_attributes", "product_terms", "constraint"} {
		if strings.Contains(string(r.Raw), internal) {
			t.Errorf("%s: the problem shows %q: %s", what, internal, r.Raw)
		}
	}
	if errs, _ := p["errors"].([]any); len(errs) != 0 {
		t.Errorf("%s: errors %v, want []", what, p["errors"])
	}
}

// A delete refused by references names every kind of resource that still refers to the item, as
// the references come and go; over gRPC too (ErrorInfo as JSON text, the Struct detail typed).
func TestDeleteInUseNamesTheReferringKinds(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	fam := Str(Want(t, c.Post("/v1/families", Body("code", "f_"+RandomHex(4))), 201).Obj(), "uuid")
	p := mkProduct(t, c, "simple")
	a := mkAttr(t, c)
	term := mkTerm(t, c, a)
	pa := link(t, c, p, a, false)
	fa := Str(Want(t, c.Post("/v1/families/"+fam+"/attributes", Body("attributeUuid", a)), 201).Obj(), "uuid")

	wantInUse(t, "attribute of a family and a product", c.Delete("/v1/attributes/"+a), "family attribute", "product attribute")
	_, err := pb.NewAttributeServiceClient(env.GRPC).DeleteAttribute(GRPCContext(t, tenant), &pb.DeleteAttributeRequest{AttributeUuid: a})
	if meta := WantGRPC(t, "gRPC delete", err, codes.FailedPrecondition, "IN_USE"); meta["referencedBy"] != `["family attribute","product attribute"]` {
		t.Errorf("gRPC ErrorInfo metadata %v", meta)
	}
	if by, ok := Strings(GRPCMeta(err)["referencedBy"]); !ok || !slices.Equal(by, []string{"family attribute", "product attribute"}) {
		t.Errorf("gRPC typed meta %v", GRPCMeta(err))
	}

	pt := linkTerm(t, c, p, pa, term)
	wantInUse(t, "term of a product", c.Delete("/v1/attributes/"+a+"/terms/"+term), "product term")
	Want(t, c.Delete(ptBase(p, pa)+"/"+pt), 204)
	Want(t, c.Delete(paBase(p)+"/"+pa), 204)
	wantInUse(t, "attribute of a family", c.Delete("/v1/attributes/"+a), "family attribute")
	Want(t, c.Delete("/v1/families/"+fam+"/attributes/"+fa), 204)
	Want(t, c.Delete("/v1/attributes/"+a), 204)
}

// The table of restricting foreign keys in server/crud (what IN_USE names) covers every foreign key
// of the schema that can refuse a delete, exactly as the database defines it.
func TestReferencesCoverTheSchema(t *testing.T) {
	rows, err := pool.Query(context.Background(), `
		SELECT c.conname, c.conrelid::regclass::text, c.confrelid::regclass::text,
		       array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(att, n)
		             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.att ORDER BY k.n)
		FROM pg_constraint c JOIN pg_namespace ns ON ns.oid = c.connamespace
		WHERE c.contype = 'f' AND c.confdeltype IN ('r', 'a') AND ns.nspname = current_schema()`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	inSchema := map[string]crud.Reference{}
	for rows.Next() {
		var r crud.Reference
		if err := rows.Scan(&r.Constraint, &r.Table, &r.Target, &r.Columns); err != nil {
			t.Fatal(err)
		}
		inSchema[r.Constraint] = r
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(inSchema) == 0 {
		t.Fatal("no restricting foreign key found")
	}
	listed := map[string]bool{}
	for _, r := range crud.References() {
		listed[r.Constraint] = true
		s, ok := inSchema[r.Constraint]
		if !ok {
			t.Errorf("crud lists %s, which is not a restricting foreign key of the schema", r.Constraint)
			continue
		}
		if s.Table != r.Table || s.Target != r.Target || !slices.Equal(s.Columns, r.Columns) {
			t.Errorf("%s: crud says %s%v → %s, the schema %s%v → %s", r.Constraint, r.Table, r.Columns, r.Target, s.Table, s.Columns, s.Target)
		}
		if crud.ReferenceKind(r.Constraint) == "" {
			t.Errorf("%s has no kind", r.Constraint)
		}
	}
	for name := range inSchema {
		if !listed[name] {
			t.Errorf("foreign key %s can refuse a delete but server/crud/references.go does not name its kind", name)
		}
	}
}
