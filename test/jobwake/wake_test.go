// Package jobwake tests that an import or export queued through a replica's own API is taken by
// that replica's worker at once, not at its next poll: its only worker here polls once an hour
// (app.Config.JobPoll), so a job that waited for the poll would not finish within the test.
package jobwake

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	. "github.com/catalogd/catalogd/server/apptest"
)

var env *apptest.Env

func TestMain(m *testing.M) {
	apptest.Main(m, &env, nil, func(c *app.Config) { c.JobPoll = time.Hour })
}

// finished waits for the job at path to reach status completed.
func finished(t *testing.T, c *Client, path string) map[string]any {
	t.Helper()
	var job map[string]any
	WaitFor(t, 60*time.Second, path+" completed (taken at once, not at the worker's hourly poll)", func() bool {
		job = Want(t, c.Get(path), 200).Obj()
		return job["status"] == "completed"
	})
	return job
}

func TestQueuedJobsStartAtOnce(t *testing.T) {
	c, _ := env.TenantClient(t)

	// A file given inline is queued by the create.
	file := []byte(`{"type":"tag","code":"inline"}` + "\n")
	imp := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", file), 201).Obj()
	if done := finished(t, c, "/v1/imports/"+Str(imp, "uuid")); done["createdCount"] != float64(1) {
		t.Errorf("inline import: %v", done)
	}

	// An uploaded file is queued by the start transition.
	file = []byte(`{"type":"tag","code":"uploaded"}` + "\n")
	sum := sha256.Sum256(file)
	created := Want(t, c.Post("/v1/imports", map[string]any{"format": "ndjson", "sizeBytes": len(file),
		"checksumSha256": hex.EncodeToString(sum[:])}), 201).Obj()
	Upload(t, created, file)
	id := Str(created["import"].(map[string]any), "uuid")
	Want(t, c.Patch("/v1/imports/"+id+"/actions/lifecycle", map[string]any{"transition": "start"}), 200)
	if done := finished(t, c, "/v1/imports/"+id); done["createdCount"] != float64(1) {
		t.Errorf("uploaded import: %v", done)
	}

	// An export is queued by its create.
	exp := Want(t, c.Post("/v1/exports", map[string]any{"format": "ndjson", "types": []string{"tag"}}), 201).Obj()
	if done := finished(t, c, "/v1/exports/"+Str(exp, "uuid")); done["itemCount"] != float64(2) {
		t.Errorf("export: %v", done)
	}
}
