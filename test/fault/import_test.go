package fault

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/server/apptest"
)

// (e) A replica killed with SIGKILL in the middle of an import: another one goes on after the last
// committed line once the lease (3 s here) has run out. Every line is applied exactly once: each
// product created once (one product.created event each), none counted unchanged (a line applied
// twice would be), none lost, and the counts and bytes add up to the file.
func TestKill9MidImportAppliesEachLineOnce(t *testing.T) {
	t.Parallel()
	dbURL, dataDir := newDatabase(t), t.TempDir()
	first := startCatalogd(t, dbURL, dataDir)
	c := newClient(first.base)
	const n = 2000
	var file strings.Builder
	file.WriteString(`{"type":"tag","code":"sale"}` + "\n")
	for i := range n {
		fmt.Fprintf(&file, `{"type":"product","code":"SKU-%05d","kind":"simple","tags":["sale"]}`+"\n", i)
	}
	lines := n + 1
	// The file inline as the create's content (base64 in JSON; gRPC's bytes).
	created := c.must(t, 201, "POST", "/v1/imports", map[string]any{"format": "ndjson", "content": []byte(file.String())}).body
	id := str(created["import"].(map[string]any), "uuid")

	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	var atKill int64
	apptest.WaitFor(t, 60*time.Second, "the import did not get going", func() bool {
		_ = conn.QueryRow(context.Background(), "SELECT lines_read FROM imports WHERE uuid = $1", id).Scan(&atKill)
		return atKill >= 100
	})
	first.kill(syscall.SIGKILL) // mid-import: lines committed, more to come
	_ = conn.QueryRow(context.Background(), "SELECT lines_read FROM imports WHERE uuid = $1", id).Scan(&atKill)
	if atKill >= int64(lines) {
		t.Fatalf("the import finished before the kill (%d lines): too fast for this test", atKill)
	}

	second := startCatalogd(t, dbURL, dataDir)
	c.setBase(second.base)
	var imp map[string]any
	apptest.WaitFor(t, 120*time.Second, "the import did not complete on the second process", func() bool {
		r, err := c.do("GET", "/v1/imports/"+id, nil)
		imp = r.body
		return err == nil && imp["status"] == "completed"
	})
	t.Logf("killed after %d of %d lines; completed by the second process", atKill, lines)
	if imp["createdCount"] != float64(lines) || imp["unchangedCount"] != float64(0) || imp["failedCount"] != float64(0) ||
		imp["linesRead"] != float64(lines) || imp["bytesRead"] != float64(file.Len()) {
		t.Errorf("import after the kill: %v", imp)
	}
	var products, createdEvents, tagged int
	_ = conn.QueryRow(context.Background(), "SELECT count(*) FROM products").Scan(&products)
	_ = conn.QueryRow(context.Background(), "SELECT count(*) FROM events WHERE type = 'product.created'").Scan(&createdEvents)
	_ = conn.QueryRow(context.Background(), "SELECT count(*) FROM events WHERE type = 'product.tag.linked'").Scan(&tagged)
	if products != n || createdEvents != n || tagged != n {
		t.Errorf("products %d, product.created %d, product.tag.linked %d: want %d each", products, createdEvents, tagged, n)
	}
}
