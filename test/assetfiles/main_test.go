// Package assetfiles tests asset files end to end (API.md "Assets", proto/catalog/v1/asset_files.proto):
// initiate, the transfer to catalogd's own signed URLs (the local blob store), complete, get, list
// and delete over REST (and once over gRPC), the events and webhooks they produce, and the work of
// the background workers (renditions, blob collection, expiry), on a real PostgreSQL.
package assetfiles

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
)

// maxUpload is the main env's CATALOG_MAX_UPLOAD_BYTES: small enough that a size just above it is
// cheap to declare, large enough for the 50 MB transfer.
const maxUpload = 64 << 20

// shortTTL and shortDownloadTTL are the upload and download URL lifetimes of the short env (the
// expiry tests). A signed expiry is truncated to whole seconds, so a URL works for between
// TTL-1s and TTL.
const (
	shortTTL         = 3 * time.Second
	shortDownloadTTL = 2 * time.Second
)

// site is a running catalogd with a pool on its database and the data directory its local blob
// store lives in (<dir>/blobs/<key>).
type site struct {
	env  *apptest.Env
	pool *pgxpool.Pool
	dir  string
}

var (
	// mainSite serves every test but the expiry ones; env and pool are its parts.
	mainSite  *site
	env       *apptest.Env
	pool      *pgxpool.Pool
	shortSite *site
)

func mainOptions(c *app.Config) {
	c.MaxUploadBytes = maxUpload
	c.WebhookAllowPrivate = true // the webhook receivers listen on 127.0.0.1
}

func shortOptions(c *app.Config) {
	c.UploadURLTTL = shortTTL
	c.DownloadURLTTL = shortDownloadTTL
	c.DisableDispatcher = true
}

// TestMain starts both services (before any test runs: an app.Start sets process-global gateway
// state that serving requests read), runs the tests and stops everything.
func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	for _, st := range []struct {
		s    **site
		opts func(*app.Config)
	}{{&mainSite, mainOptions}, {&shortSite, shortOptions}} {
		dir, err := os.MkdirTemp("", "catalogd-assetfiles-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		e, err := apptest.Start(st.opts, func(c *app.Config) { c.DataDir = dir })
		if err != nil {
			fmt.Fprintln(os.Stderr, "start catalogd:", err)
			return 1
		}
		defer e.Stop()
		p, err := pgxpool.New(context.Background(), e.DBURL)
		if err != nil {
			fmt.Fprintln(os.Stderr, "connect to the test database:", err)
			return 1
		}
		defer p.Close()
		*st.s = &site{env: e, pool: p, dir: dir}
	}
	env, pool = mainSite.env, mainSite.pool
	return m.Run()
}
