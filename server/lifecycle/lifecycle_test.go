package lifecycle

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/catalogd/catalogd/server/apierr"
)

var m = Machine{Kind: "thing", Moves: map[string]Move{
	"publish": {From: []string{"draft"}, To: "published"},
	"archive": {From: []string{"published"}, To: "archived"},
	"remove":  {From: []string{"draft", "published"}, To: "removed"},
}}

func metaJSON(t *testing.T, err error) string {
	t.Helper()
	var e *apierr.Error
	if !errors.As(err, &e) || e.Code != apierr.InvalidTransition {
		t.Fatalf("%v is not INVALID_TRANSITION", err)
	}
	b, _ := json.Marshal(e.Meta)
	return string(b)
}

// A refused move names the current status and the allowed transitions as a JSON array (empty when
// none), plus the transition asked for.
func TestRefusalMeta(t *testing.T) {
	_, err := m.Apply("draft", "archive")
	if got, want := metaJSON(t, err), `{"allowedTransitions":["publish","remove"],"currentStatus":"draft","transition":"archive"}`; got != want {
		t.Errorf("meta %s, want %s", got, want)
	}
	_, err = m.Apply("removed", "publish")
	if got, want := metaJSON(t, err), `{"allowedTransitions":[],"currentStatus":"removed","transition":"publish"}`; got != want {
		t.Errorf("meta %s, want %s", got, want)
	}
	if got, want := metaJSON(t, m.Refuse("removed", "x")), `{"allowedTransitions":[],"currentStatus":"removed"}`; got != want {
		t.Errorf("Refuse meta %s, want %s", got, want)
	}
}

func TestPath(t *testing.T) {
	m := Machine{Kind: "node", Moves: map[string]Move{
		"activate":   {From: []string{"draft", "inactive"}, To: "active"},
		"deactivate": {From: []string{"active"}, To: "inactive"},
		"remove":     {From: []string{"draft", "active", "inactive"}, To: "removed"},
		"restore":    {From: []string{"removed"}, To: "draft"},
	}}
	for _, c := range []struct {
		cur, want string
		path      []string
		known     bool
	}{
		{"draft", "active", []string{"activate"}, true},
		{"draft", "inactive", []string{"activate", "deactivate"}, true},
		{"active", "draft", []string{"remove", "restore"}, true},
		{"draft", "draft", nil, true},
		{"draft", "shiny", nil, false},
	} {
		path, known := m.Path(c.cur, c.want)
		if !reflect.DeepEqual(path, c.path) || known != c.known {
			t.Errorf("%s → %s: %v %v, want %v %v", c.cur, c.want, path, known, c.path, c.known)
		}
	}
	one := Machine{Moves: map[string]Move{"publish": {From: []string{"draft"}, To: "published"}}}
	if path, known := one.Path("published", "draft"); path != nil || known {
		t.Errorf("published → draft: %v %v", path, known)
	}
	if got := m.States(); !reflect.DeepEqual(got, []string{"active", "draft", "inactive", "removed"}) {
		t.Errorf("states %v", got)
	}
}
