package openapi

import (
	"fmt"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	image "github.com/catalogd/catalogd/gen/openapi"
)

// comments are the proto comments of the descriptor image, by full name.
type comments struct{ files *protoregistry.Files }

var (
	commentsOnce sync.Once
	commentsVal  *comments
	commentsErr  error
)

func loadComments() (*comments, error) {
	commentsOnce.Do(func() {
		var set descriptorpb.FileDescriptorSet
		if err := proto.Unmarshal(image.Image, &set); err != nil {
			commentsErr = fmt.Errorf("descriptor image: %w", err)
			return
		}
		files, err := protodesc.FileOptions{AllowUnresolvable: true}.NewFiles(&set)
		if err != nil {
			commentsErr = fmt.Errorf("descriptor image: %w", err)
			return
		}
		commentsVal = &comments{files: files}
	})
	return commentsVal, commentsErr
}

// of returns the leading comment of a descriptor, trimmed; "" when none.
func (c *comments) of(name protoreflect.FullName) string {
	d, err := c.files.FindDescriptorByName(name)
	if err != nil {
		return ""
	}
	loc := d.ParentFile().SourceLocations().ByDescriptor(d)
	var lines []string
	for _, l := range strings.Split(loc.LeadingComments, "\n") {
		lines = append(lines, strings.TrimSpace(l))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

const infoDescription = `The JSON REST facade of the product catalog service. Every path is under ` + "`/v1`" + `; the same
operations are served over gRPC (package ` + "`catalog.v1`" + `).

**Authentication.** Every operation takes a bearer JWT (` + "`Authorization: Bearer <token>`" + `) carrying the tenant
and the scopes; each operation names the scope it needs.

**Errors** are RFC 9457 problem documents (` + "`application/problem+json`" + `, schema ` + "`Problem`" + `) with a stable
` + "`code`" + `, field violations in ` + "`errors`" + ` (bulk items named by index, ` + "`[2].code`" + `) and structured ` + "`meta`" + `.

**Lists** take ` + "`page`" + ` (1-based) and ` + "`size`" + ` (1 to 100, default 20), filters ` + "`<field>[eq|contains|starts|ends|min|max]`" + `
(plural ` + "`<fields>[eq]`" + ` repeated for several values; an unknown or malformed parameter is 400), and
` + "`<field>[order]=asc|desc`" + `; ` + "`include[x]=true`" + ` fills a uuid list and ` + "`expand[x]=true`" + ` the objects, else both are null.

**Writes.** Bulk operations take 1 to 100 items and are all or nothing. PATCH changes only the fields given;
null on a nullable field clears it, null on any other field leaves it unchanged. Request bodies are JSON
(` + "`Content-Type: application/json`" + `, else 415), at most 1 MiB (413), sent within 10 seconds (408), and
unknown fields are refused. Any POST or PATCH may carry an ` + "`Idempotency-Key`" + ` (1 to 255 printable ASCII
characters): a retry with the same key and body within 24 hours gets the first answer again, with
` + "`Idempotency-Replayed: true`" + `, and does nothing twice.

**HEAD.** Every path that answers GET answers HEAD too, as that GET without a body: the same status and
headers (` + "`ETag`" + `, 304 with ` + "`If-None-Match`" + `, the status of an error). The ` + "`Allow`" + ` header of a 405 lists it.

**Rate limits.** Each tenant has a token bucket per replica: past it, 429 with ` + "`Retry-After`" + `; every answer
carries ` + "`RateLimit-Policy`" + ` and ` + "`RateLimit`" + ` (IETF draft-ietf-httpapi-ratelimit-headers). A tenant also
has at most half of the service's database connections at once; a request that finds its share busy is 429 too.

Timestamps are written with six fractional digits; decimals are written as strings and accepted as strings or
JSON numbers.`

func problemSchema() obj {
	str := func(d string, ex ...any) obj {
		s := obj{"type": "string", "description": d}
		if len(ex) > 0 {
			s["examples"] = ex
		}
		return s
	}
	return obj{
		"type":                 "object",
		"additionalProperties": false,
		"description":          "An RFC 9457 problem document: the body of every error.",
		"required":             []any{"type", "title", "status", "detail", "code", "errors", "instance", "requestId"},
		"properties": obj{
			"type":   str("A URN naming the problem type.", "urn:catalogd:problem:validation-failed"),
			"title":  str("Short summary of the problem type.", "Validation failed"),
			"status": obj{"type": "integer", "description": "The HTTP status.", "examples": []any{400}},
			"detail": str("What went wrong with this request.", "code: must be 1 to 100 characters"),
			"code": obj{"type": "string", "description": "Stable machine-readable error code.", "enum": []any{
				"VALIDATION_FAILED", "MALFORMED_REQUEST", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "ALREADY_EXISTS",
				"INVALID_TRANSITION", "IN_USE", "REQUIREMENTS_NOT_MET", "LIMIT_EXCEEDED", "UPLOAD_VERIFICATION_FAILED", "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "METHOD_NOT_ALLOWED",
				"UNSUPPORTED_MEDIA_TYPE", "REQUEST_TIMEOUT", "PRECONDITION_FAILED", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_IN_PROGRESS",
				"UNAVAILABLE", "INTERNAL"}},
			"errors":    obj{"type": "array", "description": "The invalid fields (empty when the problem is not about fields).", "items": ref("schemas", "ProblemFieldViolation")},
			"instance":  str("The request path."),
			"requestId": str("The request's X-Request-Id."),
			"meta": obj{"type": "object", "additionalProperties": true,
				"description": "Structured context of the problem (JSON values, never encoded strings); absent when there is none. " +
					"`INVALID_TRANSITION`: `currentStatus` (string), `allowedTransitions` (array of strings, possibly empty), `transition` " +
					"(the move asked for). `REQUIREMENTS_NOT_MET`: `missing` (the readiness array: `{kind, uuid, code, localeUuid, detail}`; " +
					"`errors` has one entry per item, `missing[j]`, or `uuids[i].missing[j]` in a bulk move), `publicationUuid`, or " +
					"`rule` and `parentUuid` for a hierarchy cycle. `IN_USE`: `referencedBy` (array of the kinds of resource that still " +
					"refer to it). `FORBIDDEN`: `requiredScope`. `VALIDATION_FAILED`: `constraint` (the input-type constraint a value " +
					"breaks), `items` (the item count of a bulk body out of range)."},
		},
	}
}

func headers() obj {
	return obj{
		"X-Request-Id": obj{"description": "The request's id: the client's X-Request-Id when it sent a sane one (at most 128 characters), else a new uuid.",
			"schema": obj{"type": "string"}},
		"Location":    obj{"description": "The path of the created resource.", "schema": obj{"type": "string"}},
		"Retry-After": obj{"description": "Seconds to wait before retrying.", "schema": obj{"type": "integer", "minimum": 0}},
		"RateLimit-Policy": obj{"description": "The tenant's rate limit (IETF draft-ietf-httpapi-ratelimit-headers, a structured " +
			"field): `\"default\";q=<burst>;w=<seconds>`: a token bucket of `q` requests that refills completely in `w` seconds " +
			"(CATALOG_RATE_LIMIT_BURST, and BURST / CATALOG_RATE_LIMIT_RPS rounded up). Sent on every answer to an authenticated " +
			"request while rate limiting is on.", "schema": obj{"type": "string"}, "example": `"default";q=400;w=2`},
		"RateLimit": obj{"description": "What is left of the tenant's rate limit after this request: `\"default\";r=<remaining>;t=<seconds>`: " +
			"`r` requests may be made at once now, and the bucket is full again in `t` seconds. Per replica.",
			"schema": obj{"type": "string"}, "example": `"default";r=399;t=1`},
		"WWW-Authenticate": obj{"description": "The authentication scheme: `Bearer realm=\"catalogd\"`.",
			"schema": obj{"type": "string"}},
		"Idempotency-Replayed": obj{"description": "`true` when this answer is the stored answer of an earlier request with the same " +
			"`Idempotency-Key` (and the same body): nothing was done again. Absent on a first answer.",
			"schema": obj{"type": "string", "enum": []any{"true"}}},
	}
}

// idempotencyKeyParameter is the Idempotency-Key of every POST and PATCH (server/app/idempotency.go).
func idempotencyKeyParameter() obj {
	return obj{"name": "Idempotency-Key", "in": "header", "required": false,
		"description": "Makes the request safe to retry: the first answer (success or 4xx) of an operation that ran is stored for 24 hours per " +
			"tenant (a request refused before it ran, for a malformed or invalid body, stores nothing), and a retry with the same key and the same body gets that answer again, with `Idempotency-Replayed: true`, " +
			"without doing anything. The same key with another body (or operation, or `If-Match`) is 422 `IDEMPOTENCY_KEY_REUSED`; a retry while " +
			"the first request still runs is 409 `IDEMPOTENCY_IN_PROGRESS`. 5xx answers are not stored: a retry runs again. " +
			"Use a new random key (a UUID) per operation.",
		// No example: a tool that sends the example of every operation would send one fixed key,
		// and every request after the first would be 422 IDEMPOTENCY_KEY_REUSED.
		"schema": obj{"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x20-\\x7E]+$"}}
}

// consistencyParameter is the Catalog-Consistency header of every GET.
func consistencyParameter() obj {
	return obj{"name": "Catalog-Consistency", "in": "header", "required": false,
		"description": "What the read may see when catalogd has read replicas (`DATABASE_READ_URL`). Absent: every write made " +
			"before the request (read-your-writes; a replica serves it only once it has replayed them, else the primary). " +
			"`eventual`: the state of a replica less than `CATALOG_READ_MAX_LAG` (2s) behind, which may miss the latest writes. " +
			"Any other value: 400 `VALIDATION_FAILED`. Without replicas every read sees every write.",
		"schema": obj{"type": "string", "enum": []any{"eventual"}}}
}

// commonHeaders are the headers of every answer of an operation.
func commonHeaders() obj {
	return obj{"X-Request-Id": ref("headers", "X-Request-Id"), "RateLimit-Policy": ref("headers", "RateLimit-Policy"),
		"RateLimit": ref("headers", "RateLimit")}
}

func problemResponses(maxBody int) obj {
	out := obj{}
	// A stored refusal of a POST or PATCH with an Idempotency-Key is replayed with this header.
	replayable := obj{"Idempotency-Replayed": ref("headers", "Idempotency-Replayed")}
	add := func(name, desc string, status int, code string, extra obj) {
		h := commonHeaders()
		for k, v := range extra {
			h[k] = v
		}
		out[name] = obj{"description": desc, "headers": h, "content": obj{"application/problem+json": obj{
			"schema": ref("schemas", "Problem"),
			"example": obj{"type": "urn:catalogd:problem:" + strings.ToLower(strings.ReplaceAll(code, "_", "-")),
				"title": problemTitles[code], "status": status, "detail": problemDetails[code], "code": code,
				"errors": problemErrors(code), "instance": "/v1/attributes", "requestId": "9f0c1e52-5f4f-4c61-9b5e-4d1d3c2a7b10"}}}}
	}
	add("BadRequest", "The request is invalid: `VALIDATION_FAILED` (a field breaks a rule; `errors` names each) or `MALFORMED_REQUEST` (the JSON or a query parameter cannot be read).", 400, "VALIDATION_FAILED", replayable)
	add("Unauthorized", "`UNAUTHENTICATED`: the bearer token is missing, malformed, expired or not for this service.", 401, "UNAUTHENTICATED",
		obj{"WWW-Authenticate": ref("headers", "WWW-Authenticate")})
	add("Forbidden", "`FORBIDDEN`: the token is valid but lacks the operation's scope.", 403, "FORBIDDEN", nil)
	add("NotFound", "`NOT_FOUND`: the resource (or one named by the request) does not exist in the token's tenant.", 404, "NOT_FOUND", replayable)
	add("Conflict", "`ALREADY_EXISTS` (a unique field is taken), `INVALID_TRANSITION` (the lifecycle move is not allowed from the current status), `IN_USE` (other resources still refer to it), `REQUIREMENTS_NOT_MET` (the product does not meet the channel's requirements), `IDEMPOTENCY_IN_PROGRESS` (a request with the same `Idempotency-Key` is still running; retry later), `LIMIT_EXCEEDED` (a per-tenant limit is reached, `meta.limit`: at most 50 webhook subscriptions) or `UPLOAD_VERIFICATION_FAILED` (complete-upload found no object, or one whose size or SHA-256 differs from the declared one; the file is now `failed`).", 409, "ALREADY_EXISTS", replayable)
	add("UnprocessableContent", "`IDEMPOTENCY_KEY_REUSED`: the `Idempotency-Key` was used in the last 24 hours for another request "+
		"(another body, operation or `If-Match`); use a new key.", 422, "IDEMPOTENCY_KEY_REUSED", nil)
	add("RequestTimeout", "`REQUEST_TIMEOUT`: the body was not received in time (a body must arrive within 10 seconds); the connection is closed.", 408, "REQUEST_TIMEOUT", nil)
	add("PayloadTooLarge", fmt.Sprintf("`PAYLOAD_TOO_LARGE`: the body exceeds %d bytes.", maxBody), 413, "PAYLOAD_TOO_LARGE", nil)
	add("UnsupportedMediaType", "`UNSUPPORTED_MEDIA_TYPE`: the body is not JSON: its `Content-Type` must be `application/json` or `application/*+json` "+
		"(charset, when given, `utf-8`); a body without `Content-Type` is read as JSON. A body with a `Content-Encoding` "+
		"other than `identity` (gzip, …) is refused too (no coding is decoded; the answer carries `Accept-Encoding: identity`).", 415, "UNSUPPORTED_MEDIA_TYPE", nil)
	add("TooManyRequests", "`RATE_LIMITED`: the tenant's rate limit is spent (see `RateLimit-Policy`), or the tenant has its share of the "+
		"service's database connections busy with other requests; retry after `Retry-After` seconds.", 429, "RATE_LIMITED",
		obj{"Retry-After": ref("headers", "Retry-After")})
	add("InternalError", "`INTERNAL`: an unexpected failure; nothing internal is disclosed.", 500, "INTERNAL", nil)
	add("Unavailable", "`UNAVAILABLE`: the database is unreachable or the request timed out; retry after `Retry-After` seconds.", 503, "UNAVAILABLE",
		obj{"Retry-After": ref("headers", "Retry-After")})
	return out
}

var problemTitles = map[string]string{
	"VALIDATION_FAILED": "Validation failed", "UNAUTHENTICATED": "Unauthenticated", "FORBIDDEN": "Forbidden",
	"NOT_FOUND": "Not found", "ALREADY_EXISTS": "Already exists", "PAYLOAD_TOO_LARGE": "Payload too large",
	"INTERNAL": "Internal error", "UNAVAILABLE": "Service unavailable", "REQUEST_TIMEOUT": "Request timeout",
	"UNSUPPORTED_MEDIA_TYPE": "Unsupported media type", "RATE_LIMITED": "Too many requests",
	"IDEMPOTENCY_KEY_REUSED": "Idempotency key reused",
}

var problemDetails = map[string]string{
	"VALIDATION_FAILED": "code: must be 1 to 100 characters", "UNAUTHENTICATED": "missing bearer token",
	"FORBIDDEN": "the token lacks the scope catalog:write", "NOT_FOUND": "attribute 0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13 not found",
	"ALREADY_EXISTS": "an attribute with code color already exists", "PAYLOAD_TOO_LARGE": "request body exceeds 1048576 bytes",
	"INTERNAL": "internal error", "UNAVAILABLE": "database unreachable",
	"REQUEST_TIMEOUT":        "the request body was not received within 10s",
	"UNSUPPORTED_MEDIA_TYPE": "the request body must be JSON (Content-Type: application/json), not \"text/plain\"",
	"RATE_LIMITED":           "rate limit exceeded; retry after 1 seconds",
	"IDEMPOTENCY_KEY_REUSED": "this Idempotency-Key was used for another request (another body, operation or If-Match) within the last 24 hours; use a new key",
}

func problemErrors(code string) []any {
	if code == "VALIDATION_FAILED" {
		return []any{obj{"field": "code", "message": "must be 1 to 100 characters"}}
	}
	return []any{}
}
