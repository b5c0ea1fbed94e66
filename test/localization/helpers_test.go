package localization

import (
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// listAll is the items of a list call (size 100), failing unless it answers 200.
func listAll(t *testing.T, c *Client, path string) []map[string]any {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return Want(t, c.Get(path+sep+"size=100"), 200).Items()
}

// --- creating fixtures ---

func mkLocale(t *testing.T, c *Client, code string, extra ...any) map[string]any {
	t.Helper()
	body := map[string]any{"code": code}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	return Want(t, c.Post("/v1/locales", body), 201).Obj()
}

func mkAttr(t *testing.T, c *Client, code string) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/attributes", map[string]any{"code": code}), 201).Obj(), "uuid")
}

func mkTerm(t *testing.T, c *Client, attr, code string, extra ...any) map[string]any {
	t.Helper()
	body := map[string]any{"code": code}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	return Want(t, c.Post("/v1/attributes/"+attr+"/terms", body), 201).Obj()
}

func mkContent(t *testing.T, c *Client, base, locale, name string, extra ...any) map[string]any {
	t.Helper()
	body := map[string]any{"localeUuid": locale, "displayName": name}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	return Want(t, c.Post(base, body), 201).Obj()
}

func attrContents(attr string) string { return "/v1/attributes/" + attr + "/contents" }
func terms(attr string) string        { return "/v1/attributes/" + attr + "/terms" }
func termContents(attr, term string) string {
	return "/v1/attributes/" + attr + "/terms/" + term + "/contents"
}
