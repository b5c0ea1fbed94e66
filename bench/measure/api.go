package measure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// API is a JSON client of catalogd's REST facade for the bench programs: one tenant's token, one
// HTTP client (nil: http.DefaultClient).
type API struct {
	Base  string
	Token string
	HTTP  *http.Client
}

// Call sends body as JSON (nil: no body) and decodes a 2xx answer into out (nil: discarded); any
// other status is an error carrying the answer.
func (a *API) Call(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, a.Base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+a.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	c := a.HTTP
	if c == nil {
		c = http.DefaultClient
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, raw)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// Metric is the value of the sample key (a metric's name and labels as /metrics writes them:
// `catalogd_db_reads_total{target="primary"}`) on catalogd's /metrics ("" if absent).
func (a *API) Metric(key string) string {
	c := a.HTTP
	if c == nil {
		c = http.DefaultClient
	}
	res, err := c.Get(a.Base + "/metrics")
	if err != nil {
		return ""
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, key+" "); ok {
			return v
		}
	}
	return ""
}
