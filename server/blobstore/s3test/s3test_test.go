package s3test

import (
	"context"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func TestStartStop(t *testing.T) {
	var srv Server
	t.Run("running", func(t *testing.T) {
		srv = Start(t)
		if _, err := srv.Client().HeadBucket(context.Background(), &s3.HeadBucketInput{Bucket: aws.String(srv.Bucket)}); err != nil {
			t.Fatalf("bucket: %v", err)
		}
		u, err := url.Parse(srv.BlobURL)
		if err != nil || u.Scheme != "s3" || u.Host != srv.Bucket || u.Query().Get("endpoint") != srv.Endpoint ||
			u.Query().Get("use_path_style") != "true" || u.Query().Get("region") != srv.Region {
			t.Fatalf("BlobURL %s", srv.BlobURL)
		}
		// The binary is kept in the user cache, named by version.
		if cache, err := os.UserCacheDir(); err == nil {
			bin := Binary(t)
			if filepath.Dir(bin) != filepath.Join(cache, "catalogd") || !strings.HasPrefix(filepath.Base(bin), "versitygw-v1.8.0-") {
				t.Fatalf("binary at %s", bin)
			}
		}
	})
	// The subtest's cleanup stopped the server: nothing listens any more.
	host := strings.TrimPrefix(srv.Endpoint, "http://")
	if c, err := net.DialTimeout("tcp", host, time.Second); err == nil {
		c.Close()
		t.Fatalf("%s still accepts connections after cleanup", host)
	}
}

func TestRequiredVersion(t *testing.T) {
	mod := []byte("module x\n\ngo 1.26\n\ntool github.com/versity/versitygw/cmd/versitygw\n\n" +
		"require github.com/a/b v0.1.0\n\nrequire (\n\tgithub.com/versity/scoutfs-go v0.0.1 // indirect\n" +
		"\tgithub.com/versity/versitygw v1.8.0 // indirect\n)\n")
	if v := requiredVersion(mod, "github.com/versity/versitygw"); v != "v1.8.0" {
		t.Fatalf("got %q", v)
	}
	if v := requiredVersion(mod, "github.com/a/b"); v != "v0.1.0" {
		t.Fatalf("got %q", v)
	}
	if v := requiredVersion(mod, "github.com/none"); v != "" {
		t.Fatalf("got %q", v)
	}
}
