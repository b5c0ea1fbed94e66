package transfer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
)

// Counts are a file's lines by outcome (API.md: createdCount, updatedCount, unchangedCount,
// failedCount), with the bytes and lines read.
type Counts struct {
	BytesRead, LinesRead                     int64
	Created, Updated, Unchanged, FailedLines int64
}

func (c *Counts) add(r Result) {
	switch r.Outcome {
	case Created:
		c.Created++
	case Updated:
		c.Updated++
	case Unchanged:
		c.Unchanged++
	case Failed:
		c.FailedLines++
	}
}

// plus adds o's line counts to c.
func (c *Counts) plus(o Counts) {
	c.Created += o.Created
	c.Updated += o.Updated
	c.Unchanged += o.Unchanged
	c.FailedLines += o.FailedLines
}

// LineResult is the result of the line at Line (1-based) of a file.
type LineResult struct {
	Line int64
	Result
}

// deferred is a line that referred to a code no line before it defined: it is applied again once
// the rest of the file is, when the code may exist.
type deferred struct {
	line int64
	raw  []byte
}

// Run applies the NDJSON lines of r in order, each on its own (Apply), and calls report for every
// line that failed, in the end. A line that failed only for references to codes the file defines
// further down is applied again after the whole file, as long as another pass resolves any; what
// stays unresolved fails with UNRESOLVED_REFERENCE. A line longer than MaxLineBytes fails alone
// (its bytes are skipped, never held). Blank lines are skipped and not counted. The error is for
// the reader or the database failing; ctx ending stops it between lines.
func (im *Importer) Run(ctx context.Context, r io.Reader, report func(LineResult)) (Counts, error) {
	ctx = WithCodes(ctx)
	var c Counts
	var later []deferred
	src := NDJSON(r, Position{}).(*ndjson) // its position after the last line is the bytes read
	for {
		l, err := src.Next(ctx)
		c.BytesRead = src.pos.Offset
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return c, err
		}
		c.LinesRead++
		res := Result{Outcome: Failed, Errors: l.Fail}
		if l.Fail == nil {
			if res, err = im.Apply(ctx, l.Raw); err != nil {
				return c, err
			}
		}
		if unresolvedOnly(res) {
			later = append(later, deferred{line: l.No, raw: bytes.Clone(l.Raw)})
			continue
		}
		c.add(res)
		if res.Outcome == Failed {
			report(LineResult{Line: l.No, Result: res})
		}
	}
	// Deferred lines: pass after pass while one resolves.
	for progress := true; progress && len(later) > 0; {
		progress = false
		var still []deferred
		for _, d := range later {
			if err := ctx.Err(); err != nil {
				return c, err
			}
			res, err := im.Apply(ctx, d.raw)
			if err != nil {
				return c, err
			}
			if unresolvedOnly(res) {
				still = append(still, d)
				continue
			}
			progress = true
			c.add(res)
			if res.Outcome == Failed {
				report(LineResult{Line: d.line, Result: res})
			}
		}
		later = still
	}
	for _, d := range later {
		res, err := im.Apply(ctx, d.raw)
		if err != nil {
			return c, err
		}
		c.add(res)
		report(LineResult{Line: d.line, Result: res})
	}
	return c, nil
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line (without its newline) and the bytes it consumed. A line longer than
// MaxLineBytes is read to its end without keeping it: errLineTooLong.
func readLine(br *bufio.Reader) ([]byte, int64, error) {
	var buf []byte
	var n int64
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if !long {
			if len(buf)+len(chunk) > MaxLineBytes+1 {
				long, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return nil, n, err
		}
		if long {
			return nil, n, errLineTooLong
		}
		buf = bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r"))
		if err != nil && n == 0 {
			return nil, 0, io.EOF
		}
		return buf, n, nil
	}
}

// unresolvedOnly: the line failed for unknown references only.
func unresolvedOnly(r Result) bool {
	if r.Outcome != Failed || len(r.Errors) == 0 {
		return false
	}
	for _, e := range r.Errors {
		if e.Code != "UNRESOLVED_REFERENCE" {
			return false
		}
	}
	return true
}
