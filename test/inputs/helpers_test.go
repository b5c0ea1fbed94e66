package inputs

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// --- fixtures ---

func mkTypeGroup(t *testing.T, c *Client, code, entityType string) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/type-groups", Body("code", code, "entityType", entityType)), 201).Obj(), "uuid")
}

func mkInputType(t *testing.T, c *Client, group, code, dataType string, extra ...any) map[string]any {
	t.Helper()
	b := Body(extra...)
	b["typeGroupUuid"], b["code"], b["dataType"] = group, code, dataType
	return Want(t, c.Post("/v1/input-types", b), 201).Obj()
}

func mkChannel(t *testing.T, c *Client, code string, locales ...string) map[string]any {
	t.Helper()
	if locales == nil {
		locales = []string{}
	}
	return Want(t, c.Post("/v1/channels", Body("code", code, "localeUuids", locales)), 201).Obj()
}

func cits(channel string) string { return "/v1/channels/" + channel + "/input-types" }

func mkLink(t *testing.T, c *Client, channel, inputType, level string, extra ...any) map[string]any {
	t.Helper()
	b := Body(extra...)
	b["inputTypeUuid"], b["requirementLevel"] = inputType, level
	return Want(t, c.Post(cits(channel), b), 201).Obj()
}
