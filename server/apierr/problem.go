package apierr

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Problem is the RFC 9457 body of every error the HTTP port writes.
type Problem struct {
	Type      string           `json:"type"`
	Title     string           `json:"title"`
	Status    int              `json:"status"`
	Detail    string           `json:"detail"`
	Code      Code             `json:"code"`
	Errors    []FieldViolation `json:"errors"`
	Instance  string           `json:"instance,omitempty"`
	RequestID string           `json:"requestId,omitempty"`
	Meta      map[string]any   `json:"meta,omitempty"`
}

// WriteProblem writes e as application/problem+json with its HTTP status: the one encoding of
// problem bodies (the REST gateway's app.WriteProblem adds its headers and calls it; so does the
// blob handler). instance is the request path; requestID may be empty. An INTERNAL never says more
// than "internal error". Headers of the caller's must be set before.
func WriteProblem(w http.ResponseWriter, e *Error, instance, requestID string) {
	if e.Code == Internal {
		e = From(e)
	}
	st := e.Code.HTTPStatus()
	p := Problem{Type: "urn:catalogd:problem:" + strings.ToLower(strings.ReplaceAll(string(e.Code), "_", "-")),
		Title: e.Code.Title(), Status: st, Detail: e.Detail, Code: e.Code, Errors: e.Fields, Meta: e.Meta,
		Instance: instance, RequestID: requestID}
	if p.Errors == nil {
		p.Errors = []FieldViolation{}
	}
	h := w.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "application/problem+json")
	w.WriteHeader(st)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(p)
}
