// Package apierr is the one error model of catalogd: every failure a client can see is an *Error
// with a stable machine-readable code, turned into a gRPC status with google.rpc details and, by the
// gateway, into an RFC 9457 problem document.
package apierr

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/structpb"
)

// Code is a stable, machine-readable error identifier (DESIGN.md "HTTP conventions").
type Code string

const (
	ValidationFailed   Code = "VALIDATION_FAILED"
	MalformedRequest   Code = "MALFORMED_REQUEST"
	Unauthenticated    Code = "UNAUTHENTICATED"
	Forbidden          Code = "FORBIDDEN"
	NotFound           Code = "NOT_FOUND"
	AlreadyExists      Code = "ALREADY_EXISTS"
	InvalidTransition  Code = "INVALID_TRANSITION"
	InUse              Code = "IN_USE"
	RequirementsNotMet Code = "REQUIREMENTS_NOT_MET"
	PayloadTooLarge    Code = "PAYLOAD_TOO_LARGE"
	RateLimited        Code = "RATE_LIMITED"
	LimitExceeded      Code = "LIMIT_EXCEEDED"
	// UnresolvedReference: an import line refers to a code that no line of the file nor the
	// catalog defines (API.md "Import and export").
	UnresolvedReference Code = "UNRESOLVED_REFERENCE"
	// UploadVerificationFailed: complete-upload found no object, or one of another size or SHA-256.
	UploadVerificationFailed Code = "UPLOAD_VERIFICATION_FAILED"
	UnsupportedMedia         Code = "UNSUPPORTED_MEDIA_TYPE"
	RequestTimeout           Code = "REQUEST_TIMEOUT"
	PreconditionFailed       Code = "PRECONDITION_FAILED"
	MethodNotAllowed         Code = "METHOD_NOT_ALLOWED"
	Unavailable              Code = "UNAVAILABLE"
	Internal                 Code = "INTERNAL"

	// IdempotencyKeyReused: the Idempotency-Key was used, within 24 h, for another request (another
	// body or another operation): 422.
	IdempotencyKeyReused Code = "IDEMPOTENCY_KEY_REUSED"
	// IdempotencyInProgress: the first request with this Idempotency-Key is still running: 409
	// (gRPC ABORTED: retry later).
	IdempotencyInProgress Code = "IDEMPOTENCY_IN_PROGRESS"
)

// Domain of google.rpc.ErrorInfo.
const Domain = "catalogd"

type codeInfo struct {
	grpc  codes.Code
	http  int
	title string
}

var table = map[Code]codeInfo{
	ValidationFailed:         {codes.InvalidArgument, 400, "Validation failed"},
	MalformedRequest:         {codes.InvalidArgument, 400, "Malformed request"},
	Unauthenticated:          {codes.Unauthenticated, 401, "Unauthenticated"},
	Forbidden:                {codes.PermissionDenied, 403, "Forbidden"},
	NotFound:                 {codes.NotFound, 404, "Not found"},
	AlreadyExists:            {codes.AlreadyExists, 409, "Already exists"},
	InvalidTransition:        {codes.FailedPrecondition, 409, "Invalid transition"},
	InUse:                    {codes.FailedPrecondition, 409, "In use"},
	RequirementsNotMet:       {codes.FailedPrecondition, 409, "Requirements not met"},
	PayloadTooLarge:          {codes.ResourceExhausted, 413, "Payload too large"},
	RateLimited:              {codes.ResourceExhausted, 429, "Too many requests"},
	LimitExceeded:            {codes.ResourceExhausted, 409, "Limit exceeded"},
	UnresolvedReference:      {codes.FailedPrecondition, 409, "Unresolved reference"},
	UploadVerificationFailed: {codes.FailedPrecondition, 409, "Upload verification failed"},
	UnsupportedMedia:         {codes.InvalidArgument, 415, "Unsupported media type"},
	RequestTimeout:           {codes.DeadlineExceeded, 408, "Request timeout"},
	PreconditionFailed:       {codes.FailedPrecondition, 412, "Precondition failed"},
	IdempotencyKeyReused:     {codes.FailedPrecondition, 422, "Idempotency key reused"},
	IdempotencyInProgress:    {codes.Aborted, 409, "Idempotency key in progress"},
	MethodNotAllowed:         {codes.Unimplemented, 405, "Method not allowed"},
	Unavailable:              {codes.Unavailable, 503, "Service unavailable"},
	Internal:                 {codes.Internal, 500, "Internal error"},
}

// HTTPStatus of a code.
func (c Code) HTTPStatus() int { return table[c].http }

// Title is the problem title of a code.
func (c Code) Title() string { return table[c].title }

// GRPCCode of a code.
func (c Code) GRPCCode() codes.Code { return table[c].grpc }

// FieldViolation names one bad field: `code`, `[2].code`, `codes[eq]`.
type FieldViolation struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error is a client-visible failure.
type Error struct {
	Code   Code
	Detail string
	Fields []FieldViolation
	// Meta is structured, machine-readable context: each value is anything encoding/json writes
	// (a string, a number, a []string, a slice of structs with json tags, …). The problem body
	// carries it as JSON ("meta"); over gRPC it travels twice: as google.rpc.ErrorInfo metadata
	// (strings; other values as their JSON text, AIP-193) and typed, as a google.protobuf.Struct
	// detail, which From prefers. Names and types per code: docs/design.md "Error meta".
	Meta map[string]any
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Detail }

// New makes an error with a formatted detail.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Detail: fmt.Sprintf(format, args...)}
}

// WithField adds a field violation.
func (e *Error) WithField(field, message string) *Error {
	e.Fields = append(e.Fields, FieldViolation{Field: field, Message: message})
	return e
}

// WithMeta sets one meta value (any JSON-encodable value; see Error.Meta).
func (e *Error) WithMeta(k string, v any) *Error {
	if e.Meta == nil {
		e.Meta = map[string]any{}
	}
	e.Meta[k] = v
	return e
}

// Field is a shorthand for a one-field validation error.
func Field(field, message string) *Error {
	return (&Error{Code: ValidationFailed, Detail: field + ": " + message}).WithField(field, message)
}

// NotFoundf is a 404 for a resource kind and id.
func NotFoundf(kind, id string) *Error {
	return New(NotFound, "%s %s not found", kind, id)
}

// GRPCStatus makes *Error satisfy the interface grpc's status.FromError looks for. Its details:
// google.rpc.ErrorInfo (reason = code, domain catalogd, metadata = Meta as strings), then
// google.rpc.BadRequest when there are field violations, then Meta as a google.protobuf.Struct.
func (e *Error) GRPCStatus() *status.Status {
	st := status.New(e.Code.GRPCCode(), e.Detail)
	meta, strs := encodeMeta(e.Meta)
	details := []protoadapt.MessageV1{&errdetails.ErrorInfo{Reason: string(e.Code), Domain: Domain, Metadata: strs}}
	if len(e.Fields) > 0 {
		br := &errdetails.BadRequest{}
		for _, f := range e.Fields {
			br.FieldViolations = append(br.FieldViolations, &errdetails.BadRequest_FieldViolation{Field: f.Field, Description: f.Message})
		}
		details = append(details, br)
	}
	if meta != nil {
		details = append(details, meta)
	}
	withDetails, err := st.WithDetails(details...)
	if err != nil {
		return st
	}
	return withDetails
}

// encodeMeta turns Meta into its two gRPC forms: a Struct (nil when there is no meta) and the
// ErrorInfo metadata strings (a string as is, any other value as its JSON text). A value
// encoding/json cannot write is a programming error; it is left out rather than failing the answer.
func encodeMeta(m map[string]any) (*structpb.Struct, map[string]string) {
	if len(m) == 0 {
		return nil, nil
	}
	fields := make(map[string]*structpb.Value, len(m))
	strs := make(map[string]string, len(m))
	for k, v := range m {
		js, err := json.Marshal(v)
		if err != nil {
			continue
		}
		var generic any // the value as JSON sees it: string, float64, bool, nil, []any, map[string]any
		if err := json.Unmarshal(js, &generic); err != nil {
			continue
		}
		pv, err := structpb.NewValue(generic)
		if err != nil {
			continue
		}
		fields[k] = pv
		if s, ok := generic.(string); ok {
			strs[k] = s
		} else {
			strs[k] = string(js)
		}
	}
	return &structpb.Struct{Fields: fields}, strs
}

// internalDetail is the only detail an INTERNAL error ever shows.
const internalDetail = "internal error"

// Details of the errors From makes out of statuses that are not this package's: grpc's and the
// gateway's own texts (library messages, internal limits) never reach a client.
const (
	malformedDetail   = "the request could not be read"
	tooLargeDetail    = "request body too large"
	unavailableDetail = "the service is unavailable, try again later"
)

// From turns any error into an *Error: *Error as is, gRPC statuses by their details or code,
// everything else INTERNAL (the caller logs the original; its text never reaches the client).
//
// Only this package's own statuses (ErrorInfo of domain catalogd) keep their message and details;
// the meta of one comes from its Struct detail when present (typed), else from the ErrorInfo
// metadata (strings). Any other status gets a fixed detail for its code, except a request decoding
// error (DecodeError text), whose field and message are recovered. INTERNAL never carries more
// than "internal error".
func From(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		if e.Code == Internal {
			return &Error{Code: Internal, Detail: internalDetail}
		}
		return e
	}
	st, ok := status.FromError(err)
	if !ok {
		return &Error{Code: Internal, Detail: internalDetail}
	}
	if out := fromOwnStatus(st); out != nil {
		return out
	}
	// A status without our details: produced by grpc itself or by the gateway's request decoding.
	out := &Error{}
	switch st.Code() {
	case codes.InvalidArgument:
		out.Code, out.Detail = MalformedRequest, malformedDetail
		if f, m, ok := ParseDecodeError(st.Message()); ok {
			out.Fields = append(out.Fields, FieldViolation{Field: f, Message: m})
			out.Detail = f + ": " + m
		}
	case codes.Unauthenticated:
		out.Code, out.Detail = Unauthenticated, "authentication required"
	case codes.PermissionDenied:
		out.Code, out.Detail = Forbidden, "permission denied"
	case codes.NotFound, codes.Unimplemented:
		out.Code, out.Detail = NotFound, "not found"
	case codes.AlreadyExists:
		out.Code, out.Detail = AlreadyExists, "already exists"
	case codes.ResourceExhausted:
		out.Code, out.Detail = PayloadTooLarge, tooLargeDetail
	case codes.Unavailable:
		out.Code, out.Detail = Unavailable, unavailableDetail
	case codes.Canceled, codes.DeadlineExceeded:
		out.Code, out.Detail = Unavailable, "request cancelled or timed out"
	default:
		out.Code, out.Detail = Internal, internalDetail
	}
	return out
}

// fromOwnStatus reads a status this package made (ErrorInfo of domain catalogd with a known
// code), or returns nil.
func fromOwnStatus(st *status.Status) *Error {
	var info *errdetails.ErrorInfo
	var typed *structpb.Struct
	var fields []FieldViolation
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			if d.Domain == Domain {
				info = d
			}
		case *errdetails.BadRequest:
			for _, v := range d.FieldViolations {
				fields = append(fields, FieldViolation{Field: v.Field, Message: v.Description})
			}
		case *structpb.Struct:
			typed = d
		}
	}
	if info == nil {
		return nil
	}
	code := Code(info.Reason)
	if _, known := table[code]; !known {
		return nil
	}
	if code == Internal {
		return &Error{Code: Internal, Detail: internalDetail}
	}
	out := &Error{Code: code, Detail: st.Message(), Fields: fields}
	switch {
	case typed != nil && len(typed.Fields) > 0:
		out.Meta = typed.AsMap()
	case len(info.Metadata) > 0:
		out.Meta = make(map[string]any, len(info.Metadata))
		for k, v := range info.Metadata {
			out.Meta[k] = v
		}
	}
	return out
}

// DecodeError is returned by the request decoders (JSON body, query parameters). The gateway flattens
// it into a status message with "%v"; ParseDecodeError recovers the field from that text.
type DecodeError struct {
	Field   string
	Message string
}

func (e *DecodeError) Error() string { return fmt.Sprintf("invalid field %q: %s", e.Field, e.Message) }

var decodeRE = regexp.MustCompile(`^invalid field "((?:[^"\\]|\\.)*)": (.*)$`)

// ParseDecodeError recovers field and message from a DecodeError's text.
func ParseDecodeError(s string) (field, message string, ok bool) {
	m := decodeRE.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return strings.ReplaceAll(m[1], `\"`, `"`), m[2], true
}

// Validator collects field violations, naming bulk items by index (`[2].code`).
type Validator struct {
	prefix string
	errs   *[]FieldViolation
}

// NewValidator starts a collection.
func NewValidator() Validator { return Validator{errs: &[]FieldViolation{}} }

// Item returns a validator whose fields are prefixed with `[i].` (bulk) or nothing (single: i < 0).
func (v Validator) Item(i int) Validator {
	if i < 0 {
		return v
	}
	return Validator{prefix: fmt.Sprintf("%s[%d].", v.prefix, i), errs: v.errs}
}

// Add records a violation of field.
func (v Validator) Add(field, format string, args ...any) {
	*v.errs = append(*v.errs, FieldViolation{Field: v.prefix + field, Message: fmt.Sprintf(format, args...)})
}

// Name is the full name of a field in this validator's scope.
func (v Validator) Name(field string) string { return v.prefix + field }

// Err is nil when nothing was recorded, else a VALIDATION_FAILED error listing every violation.
func (v Validator) Err() error {
	if len(*v.errs) == 0 {
		return nil
	}
	fs := append([]FieldViolation(nil), *v.errs...)
	parts := make([]string, 0, len(fs))
	for _, f := range fs {
		parts = append(parts, f.Field+": "+f.Message)
	}
	return &Error{Code: ValidationFailed, Detail: strings.Join(parts, "; "), Fields: fs}
}
