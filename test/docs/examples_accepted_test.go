package docs

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/catalogd/catalogd/server/apptest"
)

// Every request example of the document (what /docs shows for each operation) is a body the
// service accepts as written: sent to its operation, with random uuids in the path, it is never
// refused for its shape (400 VALIDATION_FAILED or MALFORMED_REQUEST). The uuids it names exist in
// no tenant, so 404 (and 409 for a move the state does not allow) are the expected answers.
func TestRequestExamplesAreAccepted(t *testing.T) {
	res, err := http.Get(env.BaseURL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			RequestBody *struct {
				Content map[string]struct {
					Example json.RawMessage `json:"example"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	c, _ := env.TenantClient(t)
	param := regexp.MustCompile(`\{[^}]+\}`)
	var refused []string
	sent := 0
	for path, item := range doc.Paths {
		for verb, op := range item {
			if op.RequestBody == nil {
				continue
			}
			ex := op.RequestBody.Content["application/json"].Example
			if len(ex) == 0 {
				t.Errorf("%s (%s %s) has no request example", op.OperationID, verb, path)
				continue
			}
			p := param.ReplaceAllStringFunc(path, func(string) string { return apptest.RandomUUID() })
			r := c.Do(strings.ToUpper(verb), p, []byte(ex))
			sent++
			if r.Status == http.StatusBadRequest {
				refused = append(refused, op.OperationID+": "+string(ex)+" → "+string(r.Raw))
			}
		}
	}
	sort.Strings(refused)
	for _, s := range refused {
		t.Errorf("request example refused: %s", s)
	}
	if sent < 100 {
		t.Errorf("sent %d examples: too few", sent)
	}
}
