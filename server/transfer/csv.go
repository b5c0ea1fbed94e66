package transfer

// The CSV source: a spreadsheet of products (API.md "CSV (products)"), each row turned into the
// product line its cells say, so that rows go through the importer as NDJSON lines do.

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// FileError is a file that cannot be read as what it claims to be (a CSV without its header's
// required column): the job fails with Reason.
type FileError struct{ Reason string }

func (e *FileError) Error() string { return e.Reason }

func fileError(format string, args ...any) error {
	return &FileError{Reason: fmt.Sprintf(format, args...)}
}

// CSVSource is the source of a CSV file of products. Close it when done.
type CSVSource struct {
	open  func(ctx context.Context, offset int64) (io.ReadCloser, error)
	file  io.ReadCloser
	rd    *csvReader
	cols  []CSVColumn
	names []string          // the columns' names as the header gives them
	types map[string]string // input type code → data type ("" unknown)
}

// DataTypes tells the data type ("text", "decimal", …) of the tenant's input type of code
// inputType; ok false when there is none.
type DataTypes func(ctx context.Context, inputType string) (dataType string, ok bool, err error)

// CSV is the source of a CSV file of products from start. open(offset) opens the file at byte
// offset: the header is read from offset 0, then, when start is after it (a job resuming), the
// file is opened again at start.Offset. dataTypes tells the data types of the value columns'
// input types, read once. A header that is not a CSV of products (no code column, a column
// twice, an unknown column, not UTF-8) is a *FileError.
func CSV(ctx context.Context, open func(ctx context.Context, offset int64) (io.ReadCloser, error), start Position, dataTypes DataTypes) (*CSVSource, error) {
	f, err := open(ctx, 0)
	if err != nil {
		return nil, err
	}
	s := &CSVSource{open: open, file: f, rd: newCSVReader(f, Position{}), types: map[string]string{}}
	if err := s.header(ctx, dataTypes); err != nil {
		_ = f.Close()
		return nil, err
	}
	if start.Offset > s.rd.pos.Offset {
		_ = f.Close()
		if s.file, err = open(ctx, start.Offset); err != nil {
			s.file = nil
			return nil, err
		}
		s.rd = newCSVReader(s.file, start)
	}
	return s, nil
}

// Close closes the file.
func (s *CSVSource) Close() error {
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	s.file = nil
	return err
}

// header reads the header row: the columns, and the data types of the value columns.
func (s *CSVSource) header(ctx context.Context, dataTypes DataTypes) error {
	if err := s.rd.skipBOM(); err != nil {
		return err
	}
	row, err := s.rd.row()
	if err == io.EOF {
		return fileError("the file is empty: a CSV of products starts with a header row")
	}
	if err != nil {
		return err
	}
	switch {
	case row.long:
		return fileError("the header row is longer than %d bytes", MaxLineBytes)
	case row.bad != "":
		return fileError("the header row: %s", row.bad)
	}
	seen := map[string]int{}
	for i, c := range row.cells {
		if !utf8.Valid(c) {
			return fileError("the header row is not valid UTF-8 (column %d)", i+1)
		}
		name := strings.TrimSpace(string(c))
		col, err := ParseCSVColumn(name)
		if err != nil {
			return fileError("the header row: %v", err)
		}
		key := col.String()
		if j, dup := seen[key]; dup {
			return fileError("the header row: column %q is given twice (columns %d and %d)", key, j+1, i+1)
		}
		seen[key] = i
		s.cols, s.names = append(s.cols, col), append(s.names, name)
		if col.Kind == ColValue {
			if _, done := s.types[col.Code]; done {
				continue
			}
			dt, ok, err := dataTypes(ctx, col.Code)
			if err != nil {
				return err
			}
			if !ok {
				dt = "" // rows giving it fail as the importer says: UNRESOLVED_REFERENCE
			}
			s.types[col.Code] = dt
		}
	}
	if _, ok := seen[ColCode]; !ok {
		return fileError("the header row has no %q column: a CSV of products needs one", ColCode)
	}
	return nil
}

// Next is the next row as a product line (rows without any cell are skipped); io.EOF after the
// last.
func (s *CSVSource) Next(ctx context.Context) (Line, error) {
	for {
		if err := ctx.Err(); err != nil {
			return Line{}, err
		}
		if s.file == nil {
			return Line{}, io.EOF
		}
		row, err := s.rd.row()
		if err != nil {
			return Line{}, err
		}
		if row.blank() {
			continue
		}
		l := Line{No: row.no, End: row.end, Type: "product"}
		for i, col := range s.cols {
			if col.Kind == ColCode && i < len(row.cells) && utf8.Valid(row.cells[i]) {
				l.Code = string(row.cells[i])
			}
		}
		switch {
		case row.long:
			l.Fail = []LineError{{Code: "PAYLOAD_TOO_LARGE", Message: fmt.Sprintf("the row is longer than %d bytes", MaxLineBytes)}}
		case row.bad != "":
			l.Fail = []LineError{{Field: s.name(row.badAt), Code: "MALFORMED_REQUEST", Message: row.bad}}
		case len(row.cells) != len(s.cols):
			l.Fail = []LineError{{Code: "MALFORMED_REQUEST", Message: fmt.Sprintf("the row has %d cells; the header has %d columns", len(row.cells), len(s.cols))}}
		default:
			l.Raw, l.Field, l.Fail = s.line(row.cells)
		}
		return l, nil
	}
}

// name is the name of column i ("" past the last).
func (s *CSVSource) name(i int) string {
	if i < len(s.names) {
		return s.names[i]
	}
	return ""
}

// line is the product line of a row's cells, with the namer of its errors' fields; or the
// reasons its cells cannot make one.
func (s *CSVSource) line(cells [][]byte) ([]byte, func(string) string, []LineError) {
	var fails []LineError
	failCell := func(i int, code, format string, args ...any) {
		fails = append(fails, LineError{Field: s.names[i], Code: code, Message: fmt.Sprintf(format, args...)})
	}
	// The line's object, and its attributes, values and publications built beside it.
	o := append(make([]byte, 0, 512), `{"type":"product"`...)
	var attrs, values, pubs []byte
	var valCols, pubCols []int // the column of each item of values and pubs
	member := func(b []byte, key string) []byte {
		if len(b) == 0 {
			b = append(b, '{')
		} else if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		return append(jsonpb.AppendString(b, key), ':')
	}
	item := func(b []byte) []byte {
		if len(b) > 0 {
			return append(b, ',')
		}
		return b
	}
	for i, c := range cells {
		if !utf8.Valid(c) {
			failCell(i, "MALFORMED_REQUEST", "the cell is not valid UTF-8")
			continue
		}
		raw := string(c)
		if strings.TrimSpace(raw) == "" {
			continue // leaves the field alone
		}
		text, null := unescapeCell(raw)
		code := strings.TrimSpace(text)
		col := s.cols[i]
		switch col.Kind {
		case ColCode, ColKind, ColFamily, ColParent, ColBrand, ColStatus:
			o = member(o, col.Kind)
			if null {
				o = append(o, "null"...)
			} else {
				o = jsonpb.AppendString(o, code)
			}
		case ColCategories, ColTags, ColAttribute:
			var b []byte
			switch {
			case null && col.Kind == ColAttribute:
				b = append(b, "null"...) // deletes the attribute
			default:
				b = append(b, '[')
				if !null { // else empties the set
					for j, c := range splitCodes(text) {
						if j > 0 {
							b = append(b, ',')
						}
						b = jsonpb.AppendString(b, c)
					}
				}
				b = append(b, ']')
			}
			if col.Kind == ColAttribute {
				attrs = append(member(attrs, col.Code), b...)
			} else {
				o = append(member(o, col.Kind), b...)
			}
		case ColValue:
			var v []byte
			switch dt := s.types[col.Code]; {
			case null:
				v = []byte("null")
			case dt == "":
				v = jsonString(text) // the input type is unknown: the importer says so
			default:
				var err error
				if v, err = ParseCSVValue(dt, raw); err != nil {
					failCell(i, "VALIDATION_FAILED", "%s (a %s value)", err, dt)
					continue
				}
			}
			values = jsonpb.AppendString(append(item(values), `{"inputType":`...), col.Code)
			if col.Locale != "" {
				values = jsonpb.AppendString(append(values, `,"locale":`...), col.Locale)
			}
			if col.Channel != "" {
				values = jsonpb.AppendString(append(values, `,"channel":`...), col.Channel)
			}
			values = append(append(append(values, `,"value":`...), v...), '}')
			valCols = append(valCols, i)
		case ColPublication:
			pubs = append(jsonpb.AppendString(append(item(pubs), `{"channel":`...), col.Code), `,"status":`...)
			if null {
				pubs = append(pubs, "null"...) // deletes the publication
			} else {
				pubs = jsonpb.AppendString(pubs, code)
			}
			pubs = append(pubs, '}')
			pubCols = append(pubCols, i)
		}
	}
	if fails != nil {
		return nil, nil, fails
	}
	if attrs != nil {
		o = append(append(member(o, "attributes"), attrs...), '}')
	}
	if values != nil {
		o = append(append(append(member(o, "values"), '['), values...), ']')
	}
	if pubs != nil {
		o = append(append(append(member(o, "publications"), '['), pubs...), ']')
	}
	return append(o, '}'), s.namer(valCols, pubCols), nil
}

// namer renames the fields of a row's line errors to the row's columns: values[2].value is the
// column of the line's third value, attributes.color[0] is attribute:color, categories[1] is
// categories, family is family; a field of no column keeps its name.
func (s *CSVSource) namer(valCols, pubCols []int) func(string) string {
	return func(field string) string {
		item := func(prefix string, cols []int) (string, bool) {
			rest, ok := strings.CutPrefix(field, prefix+"[")
			if !ok {
				return "", false
			}
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return "", false
			}
			j, err := strconv.Atoi(rest[:end])
			if err != nil || j < 0 || j >= len(cols) {
				return "", false
			}
			return s.names[cols[j]], true
		}
		if name, ok := item("values", valCols); ok {
			return name
		}
		if name, ok := item("publications", pubCols); ok {
			return name
		}
		best, bestLen := "", 0
		for i, col := range s.cols {
			var prefix string
			switch col.Kind {
			case ColAttribute:
				prefix = "attributes." + col.Code
			case ColValue, ColPublication:
				continue
			default:
				prefix = col.Kind
			}
			if field == prefix || strings.HasPrefix(field, prefix+".") || strings.HasPrefix(field, prefix+"[") {
				if len(prefix) > bestLen { // the longest: attribute:a.b over attribute:a
					best, bestLen = s.names[i], len(prefix)
				}
			}
		}
		return best
	}
}

// Merging is the importer with every map and merge of a line (a product's attributes,
// publications, values) merged item by item: the children a line does not name are left alone,
// those it gives null are deleted. CSV rows are applied so: each column touches its own
// attribute, value or channel only, and an empty cell nothing (sets given in one cell,
// categories and tags, stay exact).
func (im *Importer) Merging() *Importer {
	out := &Importer{DB: im.DB, kinds: make(map[string]*Kind, len(im.kinds))}
	for t, k := range im.kinds {
		c := *k
		c.Maps = append([]Map(nil), k.Maps...)
		for i := range c.Maps {
			c.Maps[i].Exact = false
		}
		c.Merges = append([]Merge(nil), k.Merges...)
		for i := range c.Merges {
			c.Merges[i].Exact = false
		}
		out.kinds[t] = &c
	}
	return out
}

// InputDataTypes is DataTypes read from the input types of the context's tenant.
func InputDataTypes(d *store.DB) DataTypes {
	return func(ctx context.Context, code string) (string, bool, error) {
		var dt string
		err := d.Pool.QueryRow(ctx, "SELECT data_type FROM input_types WHERE tenant_id = $1 AND code = $2", reqctx.Tenant(ctx), code).Scan(&dt)
		if store.IsNoRows(err) {
			return "", false, nil
		}
		return dt, err == nil, err
	}
}

// Rename is errs with their fields named as the line's file names them (Field): the errors of
// the line's result, for the job's record of a failed line.
func (l Line) Rename(errs []LineError) []LineError {
	if l.Field == nil {
		return errs
	}
	out := make([]LineError, len(errs))
	for i, e := range errs {
		if name := l.Field(e.Field); name != "" {
			e.Field = name
		}
		out[i] = e
	}
	return out
}
