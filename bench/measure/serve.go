package measure

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// Serve runs `catalogd serve` (binary bin, data under dir) on dbURL with extra environment, the
// test keys and no rate limit, and waits until it is ready; stop ends it. api calls it as tenant.
func Serve(bin, dir, dbURL, tenant string, extra []string) (stop func(), api *API, pid int) {
	httpAddr, grpcAddr := freeAddr(), freeAddr()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), append([]string{"DATABASE_URL=" + dbURL, "CATALOG_DATA_DIR=" + filepath.Join(dir, "data"),
		"CATALOG_HTTP_ADDR=" + httpAddr, "CATALOG_GRPC_ADDR=" + grpcAddr, "CATALOG_JWT_HS256_SECRET=" + apptest.Secret,
		"CATALOG_JWT_ISSUER=" + apptest.Issuer, "CATALOG_JWT_AUDIENCE=" + apptest.Audience, "CATALOG_RATE_LIMIT_RPS=0",
		"CATALOG_LOG_LEVEL=warn"}, extra...)...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	base := "http://" + httpAddr
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			log.Fatal("catalogd not ready in a minute")
		}
	}
	return func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}, &API{Base: base, Token: apptest.Token(tenant)}, cmd.Process.Pid
}

// SeedAttributes creates n attributes (a multiple of 100) by bulks of 100 and returns their uuids.
func SeedAttributes(api *API, n int) []string {
	var ids []string
	for i := 0; i < n; i += 100 {
		batch := make([]map[string]any, 100)
		for j := range batch {
			batch[j] = map[string]any{"code": fmt.Sprintf("seed_%d", i+j)}
		}
		var out []struct {
			UUID string `json:"uuid"`
		}
		if err := api.Call("POST", "/v1/attributes/bulk", batch, &out); err != nil {
			log.Fatal(err)
		}
		for _, o := range out {
			ids = append(ids, o.UUID)
		}
	}
	return ids
}

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Median is the median of v (0 for none).
func Median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// Setup builds catalogd into a temporary directory and creates a database named after prefix for a
// program that runs `catalogd serve` (Serve) its own ways; done removes both.
func Setup(prefix string) (dir, bin, dbURL string, done func()) {
	dir, err := os.MkdirTemp("", prefix+"-")
	if err != nil {
		log.Fatal(err)
	}
	if bin, err = apptest.BuildCatalogd(dir); err != nil {
		os.RemoveAll(dir)
		log.Fatal(err)
	}
	dbURL, drop, err := apptest.CreateDatabase(context.Background(), "catalogd_"+strings.ReplaceAll(prefix, "-", "_"))
	if err != nil {
		os.RemoveAll(dir)
		log.Fatal(err)
	}
	return dir, bin, dbURL, func() {
		drop()
		os.RemoveAll(dir)
	}
}
