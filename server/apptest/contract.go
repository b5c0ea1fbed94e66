package apptest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Contract validates every exchange of the test clients against the served /openapi.json (strict:
// every schema is closed, so an undeclared property fails, and an undeclared status fails). A
// response that the document does not describe fails the test; so does a request the document
// refuses that the service accepted. A request the document accepts but the service refuses with
// 400 is counted (the document is looser than the service there) and listed in the report.
type Contract struct {
	router routers.Router
	// Counts of this process.
	exchanges, docRefused, serviceOnlyRefused atomic.Int64
	mu                                        sync.Mutex
	looser                                    map[string]int
}

var formatsOnce sync.Once

// defineFormats registers the string formats the document uses beyond kin-openapi's defaults.
func defineFormats() {
	formatsOnce.Do(func() {
		// The service parses uuids case-insensitively (canonical 36-character form).
		openapi3.DefineStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(
			`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`))
		openapi3.DefineStringFormatValidator("uri", openapi3.NewRegexpFormatValidator(`^[A-Za-z][A-Za-z0-9+.-]*:`))
	})
}

// LoadContract reads the document the service at base serves.
func LoadContract(base string) (*Contract, error) {
	defineFormats()
	res, err := http.Get(base + "/openapi.json")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("load /openapi.json: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("/openapi.json is not a valid OpenAPI document: %w", err)
	}
	doc.Servers = openapi3.Servers{{URL: base}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &Contract{router: router, looser: map[string]int{}}, nil
}

// Check validates one exchange: req (with its body bytes) and the response. It returns why the
// document refuses the request (nil: the document accepts it; ErrNotInDocument: no operation of the
// document has its method and path).
func (c *Contract) Check(t testing.TB, req *http.Request, body []byte, r Resp) (requestErr error) {
	t.Helper()
	c.exchanges.Add(1)
	what := req.Method + " " + req.URL.RequestURI()
	if req.Method == http.MethodHead {
		c.checkHead(t, what, req, r)
		return nil
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		if r.Status == http.StatusNotFound || r.Status == http.StatusMethodNotAllowed {
			c.docRefused.Add(1)
			return ErrNotInDocument
		}
		t.Errorf("openapi: %s is not in the document (%v) but the service answered %d: %.300s", what, err, r.Status, r.Raw)
		return ErrNotInDocument
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	req.Body = io.NopCloser(bytes.NewReader(body))
	reqErr := openapi3filter.ValidateRequest(context.Background(), in)
	switch {
	case reqErr != nil && r.Status < 400:
		t.Errorf("openapi: the document refuses %s (%s) but the service answered %d:\n%v", what, oneLine(body), r.Status, reqErr)
	case reqErr != nil:
		c.docRefused.Add(1)
	case r.Status == http.StatusBadRequest:
		c.serviceOnlyRefused.Add(1)
		c.mu.Lock()
		key := route.Method + " " + route.Path + " → " + ProblemSummary(r)
		c.looser[key]++
		c.mu.Unlock()
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: r.Status, Header: r.Header,
		Body: io.NopCloser(bytes.NewReader(r.Raw)), Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("openapi: %s → %d does not match the document:\n%v\nbody: %.600s", what, r.Status, err, r.Raw)
	}
	return reqErr
}

// ErrNotInDocument: the document has no operation for the request's method and path.
var ErrNotInDocument = errors.New("no operation of the document has this method and path")

// checkHead validates a HEAD as the document describes it (its description, "HEAD"): the GET of the
// same path, without a body; so the path has a GET, the status is one the GET declares, and the
// headers the GET's answer declares are there.
func (c *Contract) checkHead(t testing.TB, what string, req *http.Request, r Resp) {
	t.Helper()
	if len(r.Raw) > 0 {
		t.Errorf("openapi: %s answered a body: %.300s", what, r.Raw)
	}
	get := req.Clone(req.Context())
	get.Method = http.MethodGet
	route, _, err := c.router.FindRoute(get)
	if err != nil {
		if r.Status != http.StatusNotFound && r.Status != http.StatusMethodNotAllowed {
			t.Errorf("openapi: %s has no GET in the document (%v) but the service answered %d", what, err, r.Status)
		}
		c.docRefused.Add(1)
		return
	}
	resp := route.Operation.Responses.Status(r.Status)
	if resp == nil || resp.Value == nil {
		t.Errorf("openapi: %s → %d: the GET does not declare that status", what, r.Status)
		return
	}
	for name, h := range resp.Value.Headers {
		if h.Value != nil && h.Value.Required && r.Header.Get(name) == "" {
			t.Errorf("openapi: %s → %d lacks the header %s the GET declares", what, r.Status, name)
		}
	}
}

// ProblemSummary is what a problem body names: its errors' "field: message", else its code and
// detail.
func ProblemSummary(r Resp) string {
	m := r.Obj()
	var fs []string
	if errs, ok := m["errors"].([]any); ok {
		for _, e := range errs {
			if e, ok := e.(map[string]any); ok {
				fs = append(fs, fmt.Sprint(e["field"], ": ", e["message"]))
			}
		}
	}
	if len(fs) == 0 {
		return fmt.Sprint(m["code"], " ", m["detail"])
	}
	return strings.Join(fs, "; ")
}

func oneLine(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// Report prints the counts (and, with OPENAPI_REPORT=<file>, appends the requests the document
// accepts but the service refused).
func (c *Contract) Report() {
	if c == nil {
		return
	}
	fmt.Fprintf(os.Stderr, "openapi contract: %d exchanges validated; %d requests refused by the document and the service; %d accepted by the document but refused by the service (400)\n",
		c.exchanges.Load(), c.docRefused.Load(), c.serviceOnlyRefused.Load())
	if p := os.Getenv("OPENAPI_REPORT"); p != "" {
		c.mu.Lock()
		defer c.mu.Unlock()
		keys := make([]string, 0, len(c.looser))
		for k := range c.looser {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return
		}
		defer f.Close()
		fmt.Fprintf(f, "# %s: %d exchanges, %d doc+service refused, %d service-only refused\n", os.Args[0], c.exchanges.Load(), c.docRefused.Load(), c.serviceOnlyRefused.Load())
		for _, k := range keys {
			fmt.Fprintf(f, "%d\t%s\n", c.looser[k], k)
		}
	}
}
