package transfer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// A Source is a file's lines, read one at a time: NDJSON as it is (NDJSON), CSV rows turned into
// the same line objects (CSV). A job reads a source from a Position (the start, or where the last
// committed line ended, after a worker died) to its end.
type Source interface {
	// Next is the next line; io.EOF after the last. Another error is the file itself failing
	// (the reader, or a CSV without its required columns): the job fails with it.
	Next(ctx context.Context) (Line, error)
}

// Position is where reading starts or resumes: the byte offset of a line's first byte and that
// line's number minus one (the lines before it).
type Position struct {
	Offset int64
	Line   int64
}

// Line is one line of a file.
type Line struct {
	// No is the line's 1-based number in the file (a CSV row: the line where it starts).
	No int64
	// End is the position just after the line: where reading resumes once it is committed.
	End Position
	// Raw is the line as an NDJSON object.
	Raw []byte
	// Fail, when set, is why the line cannot even be read (too long, not UTF-8, a CSV cell that
	// cannot be parsed): the line fails alone with these errors, Raw is nil.
	Fail []LineError
	// Type and Code are the line's type and code when the source knows them even if the line
	// cannot be read (a CSV row's product code): they name a failed line.
	Type, Code string
	// Field, when set, renames a field of the line's errors as the file names it (a CSV column
	// for values[2].value); "" keeps the name.
	Field func(name string) string
}

// ndjson reads NDJSON lines (blank lines are skipped and not counted).
type ndjson struct {
	br  *bufio.Reader
	pos Position
}

// NDJSON is the source of the NDJSON file r, whose first byte is at start.
func NDJSON(r io.Reader, start Position) Source {
	return &ndjson{br: bufio.NewReaderSize(r, 64<<10), pos: start}
}

func (s *ndjson) Next(ctx context.Context) (Line, error) {
	for {
		if err := ctx.Err(); err != nil {
			return Line{}, err
		}
		raw, n, err := readLine(s.br)
		if errors.Is(err, io.EOF) && n == 0 {
			return Line{}, io.EOF
		}
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, errLineTooLong) {
			return Line{}, err
		}
		s.pos.Offset += n
		s.pos.Line++
		l := Line{No: s.pos.Line, End: s.pos}
		switch {
		case errors.Is(err, errLineTooLong):
			l.Fail = []LineError{{Code: "PAYLOAD_TOO_LARGE", Message: fmt.Sprintf("the line is longer than %d bytes", MaxLineBytes)}}
		case len(bytes.TrimSpace(raw)) == 0:
			continue
		default:
			l.Raw = raw
		}
		return l, nil
	}
}
