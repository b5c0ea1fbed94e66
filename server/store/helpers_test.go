package store_test

import (
	"context"
	"testing"

	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/store"
)

// testDB opens a pool on a fresh database of its own, closed and dropped when the test ends; url is
// that database's.
func testDB(t *testing.T) (d *store.DB, url string) {
	t.Helper()
	ctx := context.Background()
	url, drop, err := apptest.CreateDatabase(ctx, "catalogd_store")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	if d, err = store.Open(ctx, url); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d, url
}
