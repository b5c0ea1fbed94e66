// Command flow runs the attribute flow (create → list → get → transition → delete) with the two Go
// clients generated from the served /openapi.json: oc (oapi-codegen) and og (ogen). The test in
// ../../clients_test.go copies this module into a temporary directory, generates ./oc and ./og there,
// builds and runs it against a live catalogd (CATALOGD_BASE_URL, CATALOGD_TOKEN). Each step prints
// "ok <client> <step>"; the first mismatch exits non-zero.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"

	"catalogd/clientsflow/oc"
	"catalogd/clientsflow/og"
)

func main() {
	base, token := os.Getenv("CATALOGD_BASE_URL"), os.Getenv("CATALOGD_TOKEN")
	if base == "" || token == "" {
		fail("CATALOGD_BASE_URL and CATALOGD_TOKEN are required")
	}
	ctx := context.Background()
	oapiCodegen(ctx, base, token)
	ogenClient(ctx, base, token)
	fmt.Println("flow complete")
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func step(client, name string, ok bool, format string, args ...any) {
	if !ok {
		fail(client+" "+name+": "+format, args...)
	}
	fmt.Printf("ok %s %s\n", client, name)
}

func uniqueCode(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}

func oapiCodegen(ctx context.Context, base, token string) {
	const name = "oapi-codegen"
	c, err := oc.NewClientWithResponses(base, oc.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+token)
		return nil
	}))
	if err != nil {
		fail("%s: client: %v", name, err)
	}
	code := uniqueCode("oc")

	cr, err := c.CreateAttributeWithResponse(ctx, &oc.CreateAttributeParams{}, oc.CreateAttributeJSONRequestBody{Code: code})
	// The spec: create answers the attribute without contentUuids and contents (no keys); get with
	// them (null unless asked for).
	step(name, "create", err == nil && cr.StatusCode() == 201 && cr.JSON201 != nil && cr.JSON201.Code == code &&
		cr.JSON201.Status == oc.AttributeStatusDraft && !bytes.Contains(cr.Body, []byte(`"contentUuids"`)), "%v %s", err, body(cr))
	id := cr.JSON201.Uuid

	lr, err := c.ListAttributesWithResponse(ctx, &oc.ListAttributesParams{CodesEq: &[]string{code}})
	step(name, "list", err == nil && lr.StatusCode() == 200 && lr.JSON200 != nil && len(lr.JSON200.Items) == 1 &&
		lr.JSON200.Items[0].Uuid == id && lr.JSON200.Pagination.TotalItems == 1, "%v %s", err, body(lr))

	gr, err := c.GetAttributeWithResponse(ctx, id, &oc.GetAttributeParams{})
	step(name, "get", err == nil && gr.StatusCode() == 200 && gr.JSON200 != nil && gr.JSON200.Uuid == id &&
		gr.JSON200.Code == code && gr.JSON200.ContentUuids == nil && bytes.Contains(gr.Body, []byte(`"contentUuids":null`)), "%v %s", err, body(gr))

	tr, err := c.TransitionAttributeWithResponse(ctx, id, &oc.TransitionAttributeParams{},
		oc.TransitionAttributeJSONRequestBody{Transition: oc.AttributeTransitionPublish})
	step(name, "transition", err == nil && tr.StatusCode() == 200 && tr.JSON200 != nil &&
		tr.JSON200.Status == oc.AttributeStatusPublished, "%v %s", err, body(tr))

	dr, err := c.DeleteAttributeWithResponse(ctx, id, &oc.DeleteAttributeParams{})
	step(name, "delete", err == nil && dr.StatusCode() == 204, "%v %s", err, body(dr))

	gone, err := c.GetAttributeWithResponse(ctx, id, &oc.GetAttributeParams{})
	step(name, "gone", err == nil && gone.StatusCode() == 404 && gone.ApplicationproblemJSON404 != nil &&
		gone.ApplicationproblemJSON404.Code == "NOT_FOUND", "%v %s", err, body(gone))
}

// body is what an oapi-codegen answer carried, for a failure message.
func body(r interface{ StatusCode() int }) string {
	if r == nil {
		return "(no answer)"
	}
	var b []byte
	switch v := r.(type) {
	case *oc.CreateAttributeResponse:
		b = v.Body
	case *oc.ListAttributesResponse:
		b = v.Body
	case *oc.GetAttributeResponse:
		b = v.Body
	case *oc.TransitionAttributeResponse:
		b = v.Body
	case *oc.DeleteAttributeResponse:
		b = v.Body
	}
	return fmt.Sprintf("%d %s", r.StatusCode(), b)
}

type bearer string

func (b bearer) BearerAuth(context.Context, og.OperationName) (og.BearerAuth, error) {
	return og.BearerAuth{Token: string(b)}, nil
}

func ogenClient(ctx context.Context, base, token string) {
	const name = "ogen"
	c, err := og.NewClient(base, bearer(token))
	if err != nil {
		fail("%s: client: %v", name, err)
	}
	code := uniqueCode("og")

	cres, err := c.CreateAttribute(ctx, &og.AttributeCreate{Code: code}, og.CreateAttributeParams{})
	created, ok := cres.(*og.AttributeResponseHeaders)
	step(name, "create", err == nil && ok && created.Response.Code == code && created.Response.Status == og.AttributeStatusDraft &&
		created.Location.Value == "/v1/attributes/"+created.Response.UUID.String(), "%v %#v", err, cres)
	id := created.Response.UUID

	lres, err := c.ListAttributes(ctx, og.ListAttributesParams{CodesEq: []string{code}})
	page, ok := lres.(*og.AttributesPageHeaders)
	step(name, "list", err == nil && ok && len(page.Response.Items) == 1 && page.Response.Items[0].UUID == id &&
		page.Response.Pagination.TotalItems == 1, "%v %#v", err, lres)

	gres, err := c.GetAttribute(ctx, og.GetAttributeParams{AttributeUuid: id})
	got, ok := gres.(*og.AttributeHydratedResponseHeaders)
	step(name, "get", err == nil && ok && got.Response.UUID == id && got.Response.Code == code && got.ETag.Value != "",
		"%v %#v", err, gres)

	tres, err := c.TransitionAttribute(ctx, &og.TransitionAttributeReq{Transition: og.AttributeTransitionPublish},
		og.TransitionAttributeParams{AttributeUuid: id})
	moved, ok := tres.(*og.TransitionAttributeOKHeaders)
	step(name, "transition", err == nil && ok && moved.Response.Status == og.AttributeStatusPublished, "%v %#v", err, tres)

	dres, err := c.DeleteAttribute(ctx, og.DeleteAttributeParams{AttributeUuid: id})
	_, ok = dres.(*og.DeleteAttributeNoContent)
	step(name, "delete", err == nil && ok, "%v %#v", err, dres)

	nres, err := c.GetAttribute(ctx, og.GetAttributeParams{AttributeUuid: id})
	nf, ok := nres.(*og.NotFoundHeaders)
	step(name, "gone", err == nil && ok && nf.Response.Code == og.ProblemCodeNOTFOUND, "%v %#v", err, nres)
}
