package lifecycle

import (
	"encoding/json"
	"errors"
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
