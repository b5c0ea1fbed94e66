//go:build image

// Package image tests the container image `make image` builds (Containerfile, scripts/image.sh):
// podman builds it here but cannot run it (TOOLCHAIN.md), so the test exports the filesystem of a
// container made from it (podman create + podman export), checks what is in it, and runs the
// image's entrypoint from that filesystem — chrooted into it, as the image's user, with the image's
// environment — against a private PostgreSQL, then runs the README's tour (scripts/tour.sh) against
// it. Building the image compiles catalogd (minutes on a cold cache), so the test has the build tag
// `image` and runs in `make check-image` (CI: .ci/run), not in `make test`.
package image

import (
	"archive/tar"
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func run(t *testing.T, dir string, limit time.Duration, name string, args ...string) string {
	t.Helper()
	r := apptest.RunCommand(t, dir, os.Environ(), limit, name, args...)
	if r.Code != 0 {
		t.Fatalf("%s %s: exit %d\n%s\n%s", name, strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
	t.Logf("%s %s: %s", name, strings.Join(args, " "), r.Took.Round(time.Millisecond))
	return strings.TrimSpace(r.Stdout)
}

// imageConfig is what the test reads of `podman image inspect`.
type imageConfig struct{ Config containerConfig }

type containerConfig struct {
	User       string
	Env        []string
	Entrypoint []string
	Cmd        []string
	WorkingDir string
	Labels     map[string]string
}

func TestImageServesTheTour(t *testing.T) {
	root := repoRoot(t)
	commit := run(t, root, time.Minute, "git", "rev-parse", "HEAD")
	image := "catalogd-test:" + apptest.RandomHex(4)
	// make image, under a name of the test's own (removed at the end) and the commit as its label.
	start := time.Now()
	cmd := exec.Command("bash", "scripts/image.sh")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "IMAGE="+image, "COMMIT="+commit, "VERSION=v0.0.0-test")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/image.sh: %v\n%s", err, out)
	}
	t.Logf("scripts/image.sh (go build + podman build): %s", time.Since(start).Round(time.Second))
	defer run(t, "", time.Minute, "podman", "rmi", image)

	var inspected []imageConfig
	if err := json.Unmarshal([]byte(run(t, "", time.Minute, "podman", "image", "inspect", image)), &inspected); err != nil || len(inspected) != 1 {
		t.Fatalf("podman image inspect: %v (%d images)", err, len(inspected))
	}
	cfg := inspected[0].Config
	if cfg.Labels["org.opencontainers.image.revision"] != commit || cfg.Labels["org.opencontainers.image.version"] != "v0.0.0-test" {
		t.Errorf("labels %v, want revision %s and version v0.0.0-test", cfg.Labels, commit)
	}
	uid, gid, ok := strings.Cut(cfg.User, ":")
	if !ok || uid == "" || uid == "0" || uid == "root" {
		t.Fatalf("image user %q, want a numeric non-root uid:gid", cfg.User)
	}
	if len(cfg.Entrypoint) != 1 || !slices.Equal(cfg.Cmd, []string{"serve"}) {
		t.Fatalf("entrypoint %v, cmd %v; want one binary and [serve]", cfg.Entrypoint, cfg.Cmd)
	}

	rootfs := exportRoot(t, image)
	// What is in it: the static binary, the CA certificates, the data directory the user owns; no
	// shell, nor any other program.
	bin := filepath.Join(rootfs, cfg.Entrypoint[0])
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatalf("the entrypoint %s: %v", cfg.Entrypoint[0], err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the entrypoint is dynamically linked (program header %v)", p.Type)
		}
	}
	f.Close()
	if st, err := os.Stat(filepath.Join(rootfs, "etc/ssl/certs/ca-certificates.crt")); err != nil || st.Size() < 1000 {
		t.Errorf("CA certificates: %v", err)
	}
	for _, sh := range []string{"bin/sh", "bin/bash", "usr/bin/env", "bin/busybox"} {
		if _, err := os.Lstat(filepath.Join(rootfs, sh)); err == nil {
			t.Errorf("the image has /%s", sh)
		}
	}
	var programs []string
	_ = filepath.Walk(rootfs, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			programs = append(programs, strings.TrimPrefix(p, rootfs))
		}
		return nil
	})
	if !slices.Equal(programs, []string{cfg.Entrypoint[0]}) {
		t.Errorf("executable files in the image: %v, want only the entrypoint", programs)
	}
	dataDir := envOf(cfg.Env, "CATALOG_DATA_DIR")
	if st, err := os.Stat(filepath.Join(rootfs, dataDir)); err != nil || strconv.Itoa(int(st.Sys().(*syscall.Stat_t).Uid)) != uid {
		t.Errorf("CATALOG_DATA_DIR %q: %v, want a directory the image's user owns", dataDir, err)
	}

	// catalogd version, from the image, names the commit.
	out, err := entrypoint(rootfs, cfg, uid, gid, nil, "version").Output()
	if err != nil || !strings.Contains(string(out), "commit "+commit) {
		t.Errorf("catalogd version: %v\n%s\nwant commit %s", err, out, commit)
	}

	// The entrypoint serves against a private PostgreSQL, with the image's environment plus what
	// production sets; the tour runs against it.
	dbURL, drop, err := apptest.CreateDatabase(context.Background(), "catalogd_image")
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	httpAddr, grpcAddr := apptest.FreeAddr(t), apptest.FreeAddr(t)
	base := "http://" + httpAddr
	apptest.StartProc(t, entrypoint(rootfs, cfg, uid, gid, []string{"DATABASE_URL=" + dbURL, "CATALOG_HTTP_ADDR=" + httpAddr,
		"CATALOG_GRPC_ADDR=" + grpcAddr, "CATALOG_JWT_HS256_SECRET=" + apptest.Secret, "CATALOG_JWT_ISSUER=" + apptest.Issuer,
		"CATALOG_JWT_AUDIENCE=" + apptest.Audience, "CATALOG_SECRET_KEY=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="}), base)
	tour := exec.Command(filepath.Join(root, "scripts/tour.sh"))
	tour.Dir = t.TempDir()
	tour.Env = append(os.Environ(), "BASE="+base, "TOKEN="+apptest.Token("image-"+apptest.RandomHex(4)))
	var stdout, stderr bytes.Buffer
	tour.Stdout, tour.Stderr = &stdout, &stderr
	start = time.Now()
	err = tour.Run()
	t.Logf("scripts/tour.sh against the image's catalogd: %s", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("scripts/tour.sh: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	out2 := strings.TrimRight(stdout.String(), "\n")
	if last := out2[strings.LastIndex(out2, "\n")+1:]; last != "tour complete" {
		t.Fatalf("tour's last line %q, want %q", last, "tour complete")
	}
}

// entrypoint is the image's entrypoint with args (the image's Cmd when none), run from rootfs as
// the image would: chrooted into it, as the image's user, in its working directory, with its
// environment and extra. Without root (no chroot), the exported binary runs from rootfs directly.
func entrypoint(rootfs string, cfg containerConfig, uid, gid string, extra []string, args ...string) *exec.Cmd {
	if len(args) == 0 {
		args = cfg.Cmd
	}
	u, _ := strconv.ParseUint(uid, 10, 32)
	g, _ := strconv.ParseUint(gid, 10, 32)
	path := cfg.Entrypoint[0]
	cmd := &exec.Cmd{Path: path, Args: append([]string{path}, args...), Env: append(append([]string{}, cfg.Env...), extra...)}
	if os.Geteuid() == 0 {
		cmd.Dir = cfg.WorkingDir
		cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: rootfs, Credential: &syscall.Credential{Uid: uint32(u), Gid: uint32(g)}}
	} else {
		cmd.Path = filepath.Join(rootfs, path)
		cmd.Dir = filepath.Join(rootfs, cfg.WorkingDir)
		cmd.Env = append(cmd.Env, "CATALOG_DATA_DIR="+filepath.Join(rootfs, envOf(cfg.Env, "CATALOG_DATA_DIR")))
	}
	return cmd
}

func envOf(env []string, key string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// exportRoot makes a container of image, exports its filesystem into a new directory and returns it.
func exportRoot(t *testing.T, image string) string {
	t.Helper()
	id := run(t, "", time.Minute, "podman", "create", image)
	defer run(t, "", time.Minute, "podman", "rm", id)
	tarFile := filepath.Join(t.TempDir(), "rootfs.tar")
	run(t, "", 5*time.Minute, "podman", "export", "-o", tarFile, id)
	dir := t.TempDir()
	f, err := os.Open(tarFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Clean("/"+h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(p, os.FileMode(h.Mode).Perm()|os.ModeDir)
		case tar.TypeReg:
			if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
				var out *os.File
				if out, err = os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode).Perm()); err == nil {
					_, err = io.Copy(out, tr)
					out.Close()
				}
			}
		case tar.TypeSymlink:
			err = os.Symlink(h.Linkname, p)
		default:
			t.Fatalf("the image holds %s, a file of type %c", h.Name, h.Typeflag)
		}
		if err == nil {
			err = os.Lchown(p, h.Uid, h.Gid)
		}
		if err == nil && h.Typeflag == tar.TypeDir {
			err = os.Chmod(p, os.FileMode(h.Mode).Perm()|os.FileMode(h.Mode)&(os.ModeSticky))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
