package app

import (
	"bytes"
	"context"
	"io"
	"net/http"

	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/transfer"
)

// inlineKey marks a request to POST /v1/imports whose body is the file itself (API.md): its answer
// is the import alone (inlineAnswer), not the create's {import, uploadUrl, …}.
type inlineKey struct{}

// readInlineImport reads a file sent as the body of POST /v1/imports (at most
// transfer.MaxInlineBytes; no content coding) and replaces it by the create's JSON body, with the
// query's dryRun and fileName moved into it.
func readInlineImport(w http.ResponseWriter, r *http.Request) *apierr.Error {
	if err := refuseCoding(w, r, "; send the file itself"); err != nil {
		return err
	}
	file, bad := readAll(w, r, transfer.MaxInlineBytes)
	if bad != nil {
		return bad
	}
	body, err := transfer.InlineBody(transfer.InlineFormat(r.Header.Get("Content-Type")), r.URL.Query(), file)
	if err != nil {
		return apierr.New(apierr.ValidationFailed, "%s", err.Error())
	}
	r.URL.RawQuery = ""
	r.Header.Set("Content-Type", "application/json")
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	return nil
}

// inlineAnswer is the answer of an inline import: the import itself.
func inlineAnswer(ctx context.Context, resp proto.Message) proto.Message {
	on, _ := ctx.Value(inlineKey{}).(bool)
	if !on {
		return resp
	}
	var body any = resp
	if rb, ok := resp.(interface{ XXX_ResponseBody() any }); ok { // the gateway's response_body wrapper
		body = rb.XXX_ResponseBody()
	}
	if up, ok := body.(*pb.ImportUpload); ok {
		return up.GetImport()
	}
	return resp
}
