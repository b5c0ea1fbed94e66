package attributes

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestCreateAndGet(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := Want(t, c.Post("/v1/attributes", map[string]any{"code": "color"}), 201).Obj()
	if a["displayName"] != "color" || a["status"] != "draft" {
		t.Fatalf("created %v", a)
	}
	g := Want(t, c.Get("/v1/attributes/"+a["uuid"].(string)), 200).Obj()
	if g["code"] != "color" {
		t.Fatalf("got %v", g)
	}
}
