package main

// catalogd import and catalogd export: clients of a server's /v1/imports and /v1/exports (API.md
// "Import and export (jobs)") over REST, with the job's progress on the way (progress.go).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// jobSettings are import's and export's flags.
type jobSettings struct {
	url, token, format string
	dryRun, wait       bool
	types              []string
	filter             json.RawMessage
	gzip               bool
	out                string
}

// jobClient calls a catalogd server's REST API with a bearer token.
type jobClient struct {
	base, token string
	http        *http.Client
}

func newJobClient(j jobSettings) (*jobClient, error) {
	if j.token == "" {
		return nil, errors.New("no token: set CATALOG_TOKEN (or give -token); for a development server: CATALOG_TOKEN=$(catalogd token)")
	}
	return &jobClient{base: j.url, token: j.token, http: &http.Client{}}, nil
}

// apiCallTimeout bounds one call of the API (the transfers of files have none: they take what the
// file takes).
const apiCallTimeout = time.Minute

// call sends body (JSON, when not nil) and decodes a 2xx answer into out; any other answer is an
// error with the problem's code and message.
func (c *jobClient) call(ctx context.Context, method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, apiCallTimeout)
	defer cancel()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s", method, path, problemText(resp.StatusCode, b))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("%s %s: the answer is not what was expected (%v): %.200s", method, path, err, b)
		}
	}
	return nil
}

// problemText is an error answer in a line: the status, the problem's code and message, and the
// fields it names.
func problemText(status int, body []byte) string {
	var p struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Errors  []struct {
			Field   string `json:"field"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &p) != nil || p.Code == "" {
		return fmt.Sprintf("HTTP %d: %.300s", status, strings.TrimSpace(string(body)))
	}
	s := fmt.Sprintf("HTTP %d %s: %s", status, p.Code, p.Message)
	for _, e := range p.Errors {
		s += fmt.Sprintf("; %s: %s", e.Field, e.Message)
	}
	return s
}

// count is an int64 of the API's JSON: a number, or a decimal string (proto3's JSON of int64).
type count int64

func (n *count) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" {
		*n = 0
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	*n = count(v)
	return err
}

// importJob is an Import of the API, as much as the command reads.
type importJob struct {
	UUID           string  `json:"uuid"`
	Status         string  `json:"status"`
	DryRun         bool    `json:"dryRun"`
	SizeBytes      count   `json:"sizeBytes"`
	BytesRead      count   `json:"bytesRead"`
	LinesRead      count   `json:"linesRead"`
	CreatedCount   count   `json:"createdCount"`
	UpdatedCount   count   `json:"updatedCount"`
	UnchangedCount count   `json:"unchangedCount"`
	FailedCount    count   `json:"failedCount"`
	FailureReason  *string `json:"failureReason"`
}

// exportJob is an Export of the API, as much as the command reads.
type exportJob struct {
	UUID           string  `json:"uuid"`
	Status         string  `json:"status"`
	ItemCount      count   `json:"itemCount"`
	SizeBytes      count   `json:"sizeBytes"`
	ChecksumSHA256 *string `json:"checksumSha256"`
	DownloadURL    *string `json:"downloadUrl"`
	FailureReason  *string `json:"failureReason"`
}

// importLine is a failed line of an import.
type importLine struct {
	Line   count   `json:"line"`
	Type   *string `json:"type"`
	Code   *string `json:"code"`
	Errors []struct {
		Field   string `json:"field"`
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"errors"`
}

// finished says whether a job's status is final.
func finished(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// importFormat is the format of an import's file: -format, else the file's extension.
func importFormat(format, path string) (string, error) {
	if format != "" {
		return format, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ndjson", ".jsonl":
		return "ndjson", nil
	case ".csv":
		return "csv", nil
	}
	return "", fmt.Errorf("%s: cannot tell the format from the file's extension (.ndjson, .jsonl or .csv): give -format ndjson or -format csv", path)
}

// interruptible is a context cancelled by Ctrl-C or SIGTERM.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// importCommand is `catalogd import FILE`.
func importCommand(std stdio, s *settings) error {
	j := s.jobs
	path := s.operands[0]
	format, err := importFormat(j.format, path)
	if err != nil {
		return err
	}
	c, err := newJobClient(j)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	size := st.Size()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	ctx, stop := interruptible()
	defer stop()
	out := std.out
	p := newProgress(out)

	var created struct {
		Import        importJob         `json:"import"`
		UploadURL     *string           `json:"uploadUrl"`
		UploadMethod  *string           `json:"uploadMethod"`
		UploadHeaders map[string]string `json:"uploadHeaders"`
	}
	if err := c.call(ctx, "POST", "/v1/imports", map[string]any{
		"format": format, "dryRun": j.dryRun, "fileName": filepath.Base(path), "sizeBytes": size, "checksumSha256": sum,
	}, &created); err != nil {
		return err
	}
	imp := created.Import
	if created.UploadURL == nil || *created.UploadURL == "" {
		return fmt.Errorf("import %s: the server gave no upload URL", imp.UUID)
	}
	method := "PUT"
	if created.UploadMethod != nil && *created.UploadMethod != "" {
		method = *created.UploadMethod
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := upload(ctx, c.http, method, *created.UploadURL, created.UploadHeaders, f, size, p); err != nil {
		return fmt.Errorf("import %s: upload of %s: %w", imp.UUID, path, err)
	}
	if err := c.call(ctx, "PATCH", "/v1/imports/"+imp.UUID+"/actions/lifecycle", map[string]any{"transition": "start"}, &imp); err != nil {
		return err
	}
	if !j.wait {
		p.done()
		fmt.Fprintf(out, "import %s %s: %s, %s (follow it: GET /v1/imports/%s; -wait waits for it)\n",
			imp.UUID, imp.Status, path, byteSize(size), imp.UUID)
		return nil
	}
	for poll := newPoller(); !finished(imp.Status); {
		p.show(importProgress(imp), imp.Status, fraction(int64(imp.BytesRead), int64(imp.SizeBytes)))
		if err := poll.wait(ctx); err != nil {
			p.done()
			return fmt.Errorf("stopped waiting; import %s goes on on the server (GET /v1/imports/%s)", imp.UUID, imp.UUID)
		}
		if err := c.call(ctx, "GET", "/v1/imports/"+imp.UUID, nil, &imp); err != nil {
			p.done()
			return err
		}
	}
	p.show(importProgress(imp), imp.Status, fraction(int64(imp.BytesRead), int64(imp.SizeBytes)))
	p.done()

	dry := ""
	if imp.DryRun {
		dry = " (dry run: nothing was written)"
	}
	fmt.Fprintf(out, "import %s %s%s: %d lines: %d created, %d updated, %d unchanged, %d failed\n", imp.UUID, imp.Status, dry,
		imp.LinesRead, imp.CreatedCount, imp.UpdatedCount, imp.UnchangedCount, imp.FailedCount)
	if imp.FailureReason != nil && *imp.FailureReason != "" {
		fmt.Fprintf(out, "failure: %s\n", *imp.FailureReason)
	}
	if imp.FailedCount > 0 {
		if err := printFailedLines(ctx, c, out, imp.UUID); err != nil {
			return err
		}
	}
	switch {
	case imp.Status != "completed":
		return fmt.Errorf("import %s %s", imp.UUID, imp.Status)
	case imp.FailedCount > 0:
		return fmt.Errorf("import %s: %d of %d lines failed", imp.UUID, imp.FailedCount, imp.LinesRead)
	}
	return nil
}

// importProgress is an import's progress in words.
func importProgress(imp importJob) string {
	return fmt.Sprintf("%s/%s, %d lines: %d created, %d updated, %d unchanged, %d failed", byteSize(int64(imp.BytesRead)),
		byteSize(int64(imp.SizeBytes)), imp.LinesRead, imp.CreatedCount, imp.UpdatedCount, imp.UnchangedCount, imp.FailedCount)
}

// printFailedLines lists the import's failed lines in line order, a row per error: line, type,
// code, field, error code, message ("-" for what the line does not have).
func printFailedLines(ctx context.Context, c *jobClient, out io.Writer, uuid string) error {
	fmt.Fprintln(out, "failed lines:")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  LINE\tTYPE\tCODE\tFIELD\tERROR\tMESSAGE")
	orDash := func(s *string) string {
		if s == nil || *s == "" {
			return "-"
		}
		return *s
	}
	cursor := ""
	for {
		path := "/v1/imports/" + uuid + "/lines?size=100&line%5Border%5D=asc"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		var page struct {
			Items      []importLine `json:"items"`
			Pagination struct {
				NextCursor *string `json:"nextCursor"`
			} `json:"pagination"`
		}
		if err := c.call(ctx, "GET", path, nil, &page); err != nil {
			return err
		}
		for _, l := range page.Items {
			if len(l.Errors) == 0 {
				fmt.Fprintf(tw, "  %d\t%s\t%s\t-\t-\t-\n", l.Line, orDash(l.Type), orDash(l.Code))
			}
			for _, e := range l.Errors {
				fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\n", l.Line, orDash(l.Type), orDash(l.Code), orDash(&e.Field), e.Code, oneLine(e.Message))
			}
		}
		if page.Pagination.NextCursor == nil || *page.Pagination.NextCursor == "" || len(page.Items) == 0 {
			break
		}
		cursor = *page.Pagination.NextCursor
	}
	return tw.Flush()
}

// oneLine keeps a message on its row.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// upload sends the file to the signed URL with exactly the headers the server gave.
func upload(ctx context.Context, hc *http.Client, method, target string, headers map[string]string, f io.Reader, size int64, p *progress) error {
	body := &countingReader{r: f, onRead: func(n int64) {
		p.show(fmt.Sprintf("%s/%s", byteSize(n), byteSize(size)), "uploading", fraction(n, size))
	}}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return err
	}
	req.ContentLength = size
	if size == 0 {
		req.Body = http.NoBody
	}
	for k, v := range headers {
		if strings.EqualFold(k, "Content-Length") {
			continue // req.ContentLength
		}
		req.Header.Set(k, v)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return errors.New(problemText(resp.StatusCode, b))
	}
	return nil
}

// countingReader reports the bytes read so far after each read.
type countingReader struct {
	r      io.Reader
	n      int64
	onRead func(n int64)
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	c.onRead(c.n)
	return n, err
}

// exportCommand is `catalogd export`.
func exportCommand(std stdio, s *settings) error {
	j := s.jobs
	c, err := newJobClient(j)
	if err != nil {
		return err
	}
	format := j.format
	if format == "" {
		format = "ndjson"
	}
	// The report goes where the file does not.
	report := std.out
	if j.out == "" {
		report = std.err
	}
	ctx, stop := interruptible()
	defer stop()
	body := map[string]any{"format": format, "gzip": j.gzip}
	if len(j.types) > 0 {
		body["types"] = j.types
	}
	if j.filter != nil {
		body["productFilter"] = j.filter
	}
	var created struct {
		exportJob
		Export *exportJob `json:"export"`
	}
	if err := c.call(ctx, "POST", "/v1/exports", body, &created); err != nil {
		return err
	}
	exp := created.exportJob
	if created.Export != nil {
		exp = *created.Export
	}
	p := newProgress(report)
	for poll := newPoller(); !finished(exp.Status); {
		p.show(fmt.Sprintf("%d items", exp.ItemCount), exp.Status, -1)
		if err := poll.wait(ctx); err != nil {
			p.done()
			return fmt.Errorf("stopped waiting; export %s goes on on the server (GET /v1/exports/%s)", exp.UUID, exp.UUID)
		}
		if err := c.call(ctx, "GET", "/v1/exports/"+exp.UUID, nil, &exp); err != nil {
			p.done()
			return err
		}
	}
	p.show(fmt.Sprintf("%d items", exp.ItemCount), exp.Status, -1)
	if exp.Status != "completed" {
		p.done()
		reason := ""
		if exp.FailureReason != nil && *exp.FailureReason != "" {
			reason = ": " + *exp.FailureReason
		}
		return fmt.Errorf("export %s %s%s", exp.UUID, exp.Status, reason)
	}
	if exp.DownloadURL == nil || *exp.DownloadURL == "" || exp.ChecksumSHA256 == nil {
		p.done()
		return fmt.Errorf("export %s is completed but the server gave no download URL or checksum", exp.UUID)
	}
	where, err := download(ctx, c.http, *exp.DownloadURL, j.out, std.out, int64(exp.SizeBytes), *exp.ChecksumSHA256, p)
	p.done()
	if err != nil {
		return fmt.Errorf("export %s: %w", exp.UUID, err)
	}
	fmt.Fprintf(report, "export %s completed: %d items, %s, sha256 %s, written to %s (size and checksum checked)\n",
		exp.UUID, exp.ItemCount, byteSize(int64(exp.SizeBytes)), *exp.ChecksumSHA256, where)
	return nil
}

// download GETs the signed URL into the file out (through a temporary file beside it, renamed when
// the bytes are checked: a failed download leaves no file behind), or into stdout when out is empty,
// and checks the bytes against the export's size and SHA-256. It returns where the file went.
func download(ctx context.Context, hc *http.Client, from, out string, stdout io.Writer, size int64, sum string, p *progress) (string, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", from, nil)
	if err != nil {
		return "", err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("download: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return "", fmt.Errorf("download: %s", problemText(resp.StatusCode, b))
	}
	var w io.Writer = stdout
	where := "standard output"
	var tmp *os.File
	if out != "" {
		tmp, err = os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.part")
		if err != nil {
			return "", err
		}
		defer func() {
			if tmp != nil {
				tmp.Close()
				os.Remove(tmp.Name())
			}
		}()
		w, where = tmp, out
	}
	h := sha256.New()
	body := &countingReader{r: resp.Body, onRead: func(n int64) {
		p.show(fmt.Sprintf("%s/%s", byteSize(n), byteSize(size)), "downloading", fraction(n, size))
	}}
	n, err := io.Copy(io.MultiWriter(w, h), body)
	if err != nil {
		return "", fmt.Errorf("download: %w", err)
	}
	if err := checkFile(n, h, size, sum); err != nil {
		return "", err
	}
	if tmp != nil {
		if err := tmp.Close(); err != nil {
			return "", err
		}
		if err := os.Rename(tmp.Name(), out); err != nil {
			return "", err
		}
		tmp = nil
	}
	return where, nil
}

// checkFile compares the bytes received with what the export says it wrote.
func checkFile(n int64, h hash.Hash, size int64, sum string) error {
	if n != size {
		return fmt.Errorf("download: %d bytes received, the export wrote %d", n, size)
	}
	if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, sum) {
		return fmt.Errorf("download: the bytes received have SHA-256 %s, the export's is %s", got, sum)
	}
	return nil
}

// poller paces the gets of a job: often at first (a small job is over in a moment), then every
// second.
type poller struct{ d time.Duration }

func newPoller() *poller { return &poller{d: 100 * time.Millisecond} }

func (p *poller) wait(ctx context.Context) error {
	t := time.NewTimer(p.d)
	defer t.Stop()
	p.d = min(p.d*2, time.Second)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
