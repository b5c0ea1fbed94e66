package transfer

// A streaming reader of CSV rows (RFC 4180): cells separated by commas, rows by LF or CRLF, a
// cell in double quotes may hold commas, quotes (doubled) and line breaks. Each row comes with
// the line it starts on and the byte offset after it; a row longer than MaxLineBytes is read to
// its end without being kept.

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// csvRow is one row: its cells (valid until the next row is read), where it starts and ends.
type csvRow struct {
	no    int64 // the line it starts on (1-based)
	end   Position
	cells [][]byte
	long  bool   // longer than MaxLineBytes: cells is nil
	bad   string // a syntax error ("" when none)
	badAt int    // the cell of bad (0-based)
}

// blank: no cell holds anything (an empty line, or only separators).
func (r *csvRow) blank() bool {
	for _, c := range r.cells {
		if len(c) > 0 {
			return false
		}
	}
	return !r.long && r.bad == ""
}

type csvReader struct {
	br   *bufio.Reader
	pos  Position
	buf  []byte // the row's cells, one after the other
	ends []int  // the end of each cell in buf
	// lastTwo are the last two bytes read (the second the last), for a row's line break.
	lastTwo [2]byte
}

func lastTwo(prev [2]byte, chunk []byte) [2]byte {
	if len(chunk) >= 2 {
		return [2]byte{chunk[len(chunk)-2], chunk[len(chunk)-1]}
	}
	return [2]byte{prev[1], chunk[0]}
}

// lineBreak is the length of the line break that ends with the bytes b (0 when none).
func lineBreak(b [2]byte) int64 {
	switch {
	case b == [2]byte{'\r', '\n'}:
		return 2
	case b[1] == '\n':
		return 1
	}
	return 0
}

func newCSVReader(r io.Reader, pos Position) *csvReader {
	return &csvReader{br: bufio.NewReaderSize(r, 64<<10), pos: pos}
}

// cell states.
const (
	csvStart  = iota // at a cell's first byte
	csvPlain         // in an unquoted cell
	csvQuoted        // in a quoted cell
	csvQuote         // a quote in a quoted cell: its end, or the first of two
)

// row reads the next row; io.EOF when the input has no more bytes.
func (cr *csvReader) row() (csvRow, error) {
	cr.buf, cr.ends = cr.buf[:0], cr.ends[:0]
	row := csvRow{no: cr.pos.Line + 1}
	state := csvStart
	var n int64 // the row's bytes
	endCell := func() {
		if !row.long { // a long row keeps nothing, not even where its cells end
			cr.ends = append(cr.ends, len(cr.buf))
		}
		state = csvStart
	}
	fail := func(msg string) {
		if row.bad == "" {
			row.bad, row.badAt = msg, len(cr.ends)
		}
	}
	for {
		chunk, err := cr.br.ReadSlice('\n')
		if len(chunk) > 0 {
			n += int64(len(chunk))
			cr.pos.Offset += int64(len(chunk))
			if !row.long && n > MaxLineBytes+2 { // stop keeping it (a row of MaxLineBytes may end with CRLF)
				row.long, cr.buf = true, nil
			}
			cr.lastTwo = lastTwo(cr.lastTwo, chunk)
			for _, c := range chunk {
				switch state {
				case csvStart, csvPlain:
					switch c {
					case ',':
						endCell()
						continue
					case '\n':
						continue // the row's end, after the loop
					case '"':
						if state == csvStart {
							state = csvQuoted
							continue
						}
					}
					state = csvPlain
				case csvQuoted:
					if c == '"' {
						state = csvQuote
						continue
					}
				case csvQuote:
					switch c {
					case '"':
						state = csvQuoted
					case ',':
						endCell()
						continue
					case '\r', '\n':
						continue
					default:
						fail("a character after the closing quote of a cell (a quote inside a quoted cell is written twice)")
						state = csvPlain
					}
				}
				if !row.long {
					cr.buf = append(cr.buf, c)
				}
			}
			if chunk[len(chunk)-1] == '\n' {
				cr.pos.Line++
				if state != csvQuoted {
					break // the row's end
				}
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) || (err == nil && state == csvQuoted) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return row, err
		}
		if err != nil && n == 0 {
			return row, io.EOF
		}
		if state == csvQuoted {
			fail("a quoted cell is not closed before the end of the file")
		}
		if cr.lastTwo[1] != '\n' {
			cr.pos.Line++ // the last line, without a line break
		}
		break
	}
	// The last cell; a CR before the row's LF is the line break's (CRLF).
	if state == csvPlain && len(cr.buf) > 0 && cr.buf[len(cr.buf)-1] == '\r' {
		cr.buf = cr.buf[:len(cr.buf)-1]
	}
	cr.ends = append(cr.ends, len(cr.buf))
	row.end = cr.pos
	if !row.long && n-lineBreak(cr.lastTwo) > MaxLineBytes {
		row.long = true
	}
	if row.long {
		return row, nil
	}
	row.cells = make([][]byte, len(cr.ends))
	start := 0
	for i, e := range cr.ends {
		row.cells[i] = cr.buf[start:e:e]
		start = e
	}
	return row, nil
}

// utf8BOM starts some UTF-8 files (spreadsheets' "CSV UTF-8").
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// skipBOM skips a BOM at the reader's start.
func (cr *csvReader) skipBOM() error {
	b, err := cr.br.Peek(len(utf8BOM))
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if bytes.Equal(b, utf8BOM) {
		_, _ = cr.br.Discard(len(utf8BOM))
		cr.pos.Offset += int64(len(utf8BOM))
	}
	return nil
}
