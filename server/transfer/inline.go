package transfer

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"strconv"
	"strings"
)

// InlineImportRPC is the method whose REST route (POST /v1/imports) also takes the file itself as
// its body (API.md): Content-Type application/x-ndjson or text/csv, at most MaxInlineBytes, query
// dryRun=true and fileName optional.
const InlineImportRPC = "/catalog.v1.ImportService/CreateImport"

// InlineFormat is the import format of a request body's media type ("" when it is not a file's).
// A charset other than UTF-8 is not one.
func InlineFormat(contentType string) string {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return ""
	}
	switch mt {
	case "application/x-ndjson", "application/ndjson":
		return "ndjson"
	case "text/csv":
		return "csv"
	}
	return ""
}

// InlineBody is the JSON body of CreateImport for a file sent as the body itself: its format, the
// query's dryRun and fileName, and the file as content. The error names a bad query parameter
// (any other is unknown).
func InlineBody(format string, query url.Values, file []byte) ([]byte, error) {
	in := map[string]any{"format": format, "content": file}
	for k, vs := range query {
		switch k {
		case "dryRun":
			b, err := strconv.ParseBool(vs[len(vs)-1])
			if err != nil || len(vs) > 1 {
				return nil, fmt.Errorf("dryRun must be given once, true or false")
			}
			in["dryRun"] = b
		case "fileName":
			if len(vs) > 1 {
				return nil, fmt.Errorf("fileName must be given once")
			}
			in["fileName"] = vs[0]
		default:
			return nil, fmt.Errorf("unknown query parameter %q: a file sent as the body takes dryRun and fileName", k)
		}
	}
	return json.Marshal(in) // []byte: base64, as the API's JSON has bytes
}
