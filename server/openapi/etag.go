package openapi

import (
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/server/etag"
)

// The entity tag rules of the document (server/etag, server/app/etag.go), once for every
// operation: the ETag header of every answer holding one resource, If-None-Match and 304 on the
// GETs of one resource, If-Match and 412 on single updates, deletes and lifecycle moves, 412 on
// bulk updates and moves (their etags are per item, in the body). The resources' `etag` field is
// not a property of their schemas: over REST the tag is the header.

// ConditionPattern is what server/etag.ParseList reads as an If-Match or If-None-Match value: `*`, or
// a comma-separated list of entity tags (`"x"`, `W/"x"`; no control character, space or quote inside).
const ConditionPattern = `^[ \t]*(\*|(W/)?"[^"\x00-\x20\x7F]*"([ \t]*,[ \t]*(W/)?"[^"\x00-\x20\x7F]*")*)[ \t]*$`

// conditional reports an RPC that takes conditions: Update*, Delete*, Transition* and their bulk
// forms (the names server/app/etag.go reads them for).
func conditional(name string) (single, bulk bool) {
	for _, p := range []string{"Update", "Delete", "Transition"} {
		if strings.HasPrefix(name, p) {
			return true, false
		}
		if strings.HasPrefix(name, "Bulk"+p) {
			return false, true
		}
	}
	return false, false
}

// singleResource reports an RPC whose success body is one resource (it answers with ETag).
func singleResource(md protoreflect.MethodDescriptor) bool {
	rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
	f := md.Output().Fields().ByName(protoreflect.Name(rule.GetResponseBody()))
	return f != nil && !f.IsList() && !f.IsMap() && f.Message() != nil && etag.IsResource(f.Message())
}

// etagParameters are the conditional headers an operation takes.
func etagParameters(md protoreflect.MethodDescriptor, verb string) []any {
	if single, _ := conditional(string(md.Name())); single {
		return []any{ref("parameters", "If-Match")}
	}
	if verb == "get" && singleResource(md) {
		return []any{ref("parameters", "If-None-Match")}
	}
	return nil
}

// etagResponses adds the ETag header to the success answer resp of an operation answering one
// resource, its 304 to a GET of one resource, and 412 to the conditional writes.
func etagResponses(md protoreflect.MethodDescriptor, verb string, resp, responses obj) {
	if singleResource(md) {
		resp["headers"].(obj)["ETag"] = ref("headers", "ETag")
		if verb == "get" {
			responses["304"] = ref("responses", "NotModified")
		}
	}
	if single, bulk := conditional(string(md.Name())); single || bulk {
		responses["412"] = ref("responses", "PreconditionFailed")
	}
}

// addETagComponents adds the parameters, header and responses the operations refer to.
func addETagComponents(c obj) {
	c["parameters"].(obj)["If-Match"] = obj{"name": "If-Match", "in": "header", "required": false,
		"description": "Write only if the resource is unchanged: its `ETag` as last read (or a comma-separated list of tags, any " +
			"of which may match; `*` matches any existing resource). Compared strongly: a weak tag (`W/\"…\"`) never matches. " +
			"When the resource's tag differs, the answer is 412 `PRECONDITION_FAILED` with the current tag in `meta.etag`, " +
			"and nothing is written. The body's `etag` (on an update) is the same condition; both given and different: 400.",
		"schema": obj{"type": "string", "pattern": ConditionPattern}, "example": `"3q2-7wLt1mFqkbXq0hGZ0g"`}
	c["parameters"].(obj)["If-None-Match"] = obj{"name": "If-None-Match", "in": "header", "required": false,
		"description": "Answer 304 Not Modified, without a body, when the resource's `ETag` is one of these tags (weak comparison; " +
			"`*` matches any). A GET with `include[…]` or `expand[…]` is always answered in full.",
		"schema": obj{"type": "string", "pattern": ConditionPattern}, "example": `"3q2-7wLt1mFqkbXq0hGZ0g"`}
	c["headers"].(obj)["ETag"] = obj{"description": "The resource's strong entity tag: it changes with every write of the resource " +
		"(include/expand views of other resources do not change it). Give it back as `If-Match` to update, delete or move the " +
		"resource only if nobody changed it since, or as `If-None-Match` to re-read it only if it changed.",
		"schema": obj{"type": "string"}, "example": `"3q2-7wLt1mFqkbXq0hGZ0g"`}
	h := commonHeaders()
	h["ETag"] = ref("headers", "ETag")
	c["responses"].(obj)["NotModified"] = obj{"description": "Not Modified: the resource's `ETag` matches `If-None-Match`; no body.",
		"headers": h}
	c["responses"].(obj)["PreconditionFailed"] = obj{"description": "`PRECONDITION_FAILED`: the resource changed since the tag given " +
		"(`If-Match`, or `etag`); `meta.etag` is its current tag (in a bulk: `meta.etags`, by uuid, and `errors` naming each " +
		"stale item). Nothing was written.",
		"headers": commonHeaders(), "content": obj{"application/problem+json": obj{
			"schema": ref("schemas", "Problem"),
			"example": obj{"type": "urn:catalogd:problem:precondition-failed", "title": "Precondition failed", "status": 412,
				"detail": "attribute 0190a5e4-7c1a-7d3e-9f10-2b3c4d5e6f70 has changed since it was read: its etag is now \"3q2-7wLt1mFqkbXq0hGZ0g\"",
				"code":   "PRECONDITION_FAILED", "errors": []any{}, "meta": obj{"etag": `"3q2-7wLt1mFqkbXq0hGZ0g"`},
				"instance": "/v1/attributes/0190a5e4-7c1a-7d3e-9f10-2b3c4d5e6f70", "requestId": "9f0c1e52-5f4f-4c61-9b5e-4d1d3c2a7b10"}}}}
}
