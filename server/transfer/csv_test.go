package transfer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestCSVValueRoundTrip(t *testing.T) {
	for _, c := range []struct {
		dataType, cell, value string
	}{
		{DataText, "Stiefel, rot", `"Stiefel, rot"`},
		{DataText, "  spaced \n two lines ", `"  spaced \n two lines "`},
		{DataText, "##NULL", `"#NULL"`},
		{DataText, "###NULL", `"##NULL"`},
		{DataRichText, "<p>Hi</p>", `"<p>Hi</p>"`},
		{DataURL, "https://example.com/a?b=c", `"https://example.com/a?b=c"`},
		{DataInteger, "-5", `-5`},
		{DataInteger, "0", `0`},
		{DataDecimal, "12.50", `"12.50"`},
		{DataDecimal, "-0.5", `"-0.5"`},
		{DataBoolean, "true", `true`},
		{DataBoolean, "false", `false`},
		{DataDate, "2024-01-31", `"2024-01-31"`},
		{DataDateTime, "2024-01-31T10:00:00+01:00", `"2024-01-31T10:00:00+01:00"`},
		{DataMoney, "89.90 EUR", `{"amount":"89.90","currency":"EUR"}`},
		{DataJSON, `{"a":[1,2],"b":"x"}`, `{"a":[1,2],"b":"x"}`},
		{DataJSON, `"just text"`, `"just text"`},
		{DataJSON, `3.25`, `3.25`},
	} {
		got, err := ParseCSVValue(c.dataType, c.cell)
		if err != nil || string(got) != c.value {
			t.Errorf("ParseCSVValue(%s, %q) = %s, %v; want %s", c.dataType, c.cell, got, err, c.value)
			continue
		}
		back, err := FormatCSVValue(c.dataType, got)
		if err != nil || back != c.cell {
			t.Errorf("FormatCSVValue(%s, %s) = %q, %v; want %q", c.dataType, got, back, err, c.cell)
		}
	}
}

func TestCSVValueForms(t *testing.T) {
	// Lenient reading: spaces around non-text cells, booleans of any case, JSON compacted.
	for _, c := range []struct{ dataType, cell, value string }{
		{DataInteger, " 42 ", `42`},
		{DataBoolean, "TRUE", `true`},
		{DataBoolean, "False", `false`},
		{DataMoney, " 5 USD ", `{"amount":"5","currency":"USD"}`},
		{DataJSON, " { \"a\" : 1 } ", `{"a":1}`},
		{DataDate, " 2024-02-29 ", `"2024-02-29"`},
	} {
		if got, err := ParseCSVValue(c.dataType, c.cell); err != nil || string(got) != c.value {
			t.Errorf("ParseCSVValue(%s, %q) = %s, %v; want %s", c.dataType, c.cell, got, err, c.value)
		}
	}
	// The API's other forms of a value are written in the one text form.
	for _, c := range []struct{ dataType, value, cell string }{
		{DataDecimal, `12.50`, "12.50"},
		{DataMoney, `{"amount":19.99,"currency":"EUR"}`, "19.99 EUR"},
		{DataJSON, `{ "a" : [ 1 ] }`, `{"a":[1]}`},
		{DataText, `"#NULL"`, "##NULL"},
		{DataText, `""`, ""},
		{DataText, `"a\"b\\c\n"`, "a\"b\\c\n"},
		{DataText, `"caf\u00e9"`, "café"},
		{DataMoney, `{"currency":"USD","amount":"5"}`, "5 USD"},
	} {
		if got, err := FormatCSVValue(c.dataType, json.RawMessage(c.value)); err != nil || got != c.cell {
			t.Errorf("FormatCSVValue(%s, %s) = %q, %v; want %q", c.dataType, c.value, got, err, c.cell)
		}
	}
	// Cells that are not of their type fail with a message saying the form.
	for _, c := range []struct{ dataType, cell string }{
		{DataInteger, "1.5"}, {DataInteger, "1e3"}, {DataInteger, "1,000"}, {DataInteger, "007"},
		{DataDecimal, "12,50"}, {DataDecimal, "1e3"}, {DataDecimal, "abc"}, {DataDecimal, ".5"},
		{DataBoolean, "yes"}, {DataBoolean, "1"},
		{DataMoney, "89.90"}, {DataMoney, "EUR 89.90"}, {DataMoney, "89.90 eur"}, {DataMoney, "89,90 EUR"},
		{DataJSON, "{a:1}"}, {DataJSON, "null"},
		{"colour", "x"},
	} {
		if got, err := ParseCSVValue(c.dataType, c.cell); err == nil || err.Error() == "" {
			t.Errorf("ParseCSVValue(%s, %q) = %s, want an error", c.dataType, c.cell, got)
		}
	}
	for _, c := range []struct{ dataType, value string }{
		{DataText, `5`}, {DataInteger, `"5"`}, {DataInteger, `1.5`}, {DataBoolean, `"true"`},
		{DataMoney, `{"amount":"1"}`}, {DataMoney, `"1 EUR"`}, {DataMoney, `{"amount":"1","currency":"eur"}`}, {DataText, `"abc`}, {DataText, `"a"b"`}, {DataDecimal, `1e3`}, {DataJSON, `null`}, {DataText, ``},
		{"colour", `"x"`},
	} {
		if got, err := FormatCSVValue(c.dataType, json.RawMessage(c.value)); err == nil {
			t.Errorf("FormatCSVValue(%s, %s) = %q, want an error", c.dataType, c.value, got)
		}
	}
}

func TestCSVColumns(t *testing.T) {
	for name, want := range map[string]CSVColumn{
		"code":                    {Kind: ColCode},
		"tags":                    {Kind: ColTags},
		"attribute:color":         {Kind: ColAttribute, Code: "color"},
		"attribute:a:b":           {Kind: ColAttribute, Code: "a:b"},
		"value:title":             {Kind: ColValue, Code: "title"},
		"value:title@de-DE":       {Kind: ColValue, Code: "title", Locale: "de-DE"},
		"value:price#web":         {Kind: ColValue, Code: "price", Channel: "web"},
		"value:title@de-DE#web":   {Kind: ColValue, Code: "title", Locale: "de-DE", Channel: "web"},
		"value:title@de-DE#web#2": {Kind: ColValue, Code: "title", Locale: "de-DE", Channel: "web#2"},
		"publication:web":         {Kind: ColPublication, Code: "web"},
	} {
		got, err := ParseCSVColumn(name)
		if err != nil || got != want {
			t.Errorf("ParseCSVColumn(%q) = %+v, %v; want %+v", name, got, err, want)
		}
		if got.String() != name {
			t.Errorf("%+v.String() = %q, want %q", got, got.String(), name)
		}
	}
	for _, name := range []string{"", "Code", "name", "value:", "value:@de", "value:x@", "value:x#", "attribute:", "publications:web", "values:title"} {
		if got, err := ParseCSVColumn(name); err == nil {
			t.Errorf("ParseCSVColumn(%q) = %+v, want an error", name, got)
		}
	}
	if s, err := JoinCSVCodes([]string{"a", "b"}); err != nil || s != "a|b" {
		t.Errorf("JoinCSVCodes = %q, %v", s, err)
	}
	if _, err := JoinCSVCodes([]string{"a|b"}); err == nil {
		t.Error("JoinCSVCodes of a code with | succeeded")
	}
}

// memFile is a file in memory, opened at an offset.
func memFile(data string) func(context.Context, int64) (io.ReadCloser, error) {
	return func(_ context.Context, off int64) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(data[off:])), nil
	}
}

func testTypes(_ context.Context, code string) (string, bool, error) {
	dt, ok := map[string]string{"title": DataText, "weight": DataDecimal, "price": DataMoney, "stock": DataInteger, "new": DataBoolean}[code]
	return dt, ok, nil
}

// readAll reads a source to its end.
func readAll(t *testing.T, s Source) []Line {
	t.Helper()
	var out []Line
	for {
		l, err := s.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
}

func openCSV(t *testing.T, data string, start Position) *CSVSource {
	t.Helper()
	s, err := CSV(context.Background(), memFile(data), start, testTypes)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestCSVRows(t *testing.T) {
	file := "\xEF\xBB\xBFcode,kind,family,parent,brand,status,categories,tags,attribute:color,value:title@de-DE,value:weight,value:price#web,value:stock,value:new,publication:web,value:colour\r\n" +
		"BOOT-1,simple,footwear,,acme,active,boots|sale,summer, red | blue ,\"Stiefel, \"\"rot\"\"\r\nzweite Zeile\",1.5,89.90 EUR,3,TRUE,published,\r\n" +
		"\r\n" + // a blank line: skipped
		",,,,,,,,,,,,,,,\r\n" + // a row of empty cells: skipped
		"BOOT-2,,,#NULL,#NULL,,#NULL,,#NULL,#NULL,,,,,#NULL,x\r\n" +
		"BOOT-3,,,,,,,,,,heavy,89.90,,,,\r\n" + // two bad cells: the row fails, naming both columns
		"BOOT-4,simple\r\n" + // too few cells
		"BOOT-5,\"simple\"x,,,,,,,,,,,,,,\r\n" + // a character after a closing quote
		"BOOT-\xff,,,,,,,,,,,,,,,\r\n" + // not UTF-8
		"BOOT-6,,,,,,,,,,,,,,,\n" + // LF alone
		"BOOT-7,,,,,,,,,##NULL,,,,,,"
	lines := readAll(t, openCSV(t, file, Position{}))
	type want struct {
		no   int64
		raw  string
		fail []LineError
	}
	wants := []want{
		{no: 2, raw: `{"type":"product","code":"BOOT-1","kind":"simple","family":"footwear","brand":"acme","status":"active","categories":["boots","sale"],"tags":["summer"],` +
			`"attributes":{"color":["red","blue"]},"values":[{"inputType":"title","locale":"de-DE","value":"Stiefel, \"rot\"\r\nzweite Zeile"},{"inputType":"weight","value":"1.5"},` +
			`{"inputType":"price","channel":"web","value":{"amount":"89.90","currency":"EUR"}},{"inputType":"stock","value":3},{"inputType":"new","value":true}],"publications":[{"channel":"web","status":"published"}]}`},
		{no: 6, raw: `{"type":"product","code":"BOOT-2","parent":null,"brand":null,"categories":[],"attributes":{"color":null},"values":[{"inputType":"title","locale":"de-DE","value":null},{"inputType":"colour","value":"x"}],"publications":[{"channel":"web","status":null}]}`},
		{no: 7, fail: []LineError{
			{Field: "value:weight", Code: "VALIDATION_FAILED", Message: "must be a decimal such as 12.50 or -0.5 (a dot, no separators or exponent) (a decimal value)"},
			{Field: "value:price#web", Code: "VALIDATION_FAILED", Message: `must be an amount and a currency code such as "89.90 EUR" (a money value)`}}},
		{no: 8, fail: []LineError{{Code: "MALFORMED_REQUEST", Message: "the row has 2 cells; the header has 16 columns"}}},
		{no: 9, fail: []LineError{{Field: "kind", Code: "MALFORMED_REQUEST", Message: "a character after the closing quote of a cell (a quote inside a quoted cell is written twice)"}}},
		{no: 10, fail: []LineError{{Field: "code", Code: "MALFORMED_REQUEST", Message: "the cell is not valid UTF-8"}}},
		{no: 11, raw: `{"type":"product","code":"BOOT-6"}`},
		{no: 12, raw: `{"type":"product","code":"BOOT-7","values":[{"inputType":"title","locale":"de-DE","value":"#NULL"}]}`},
	}
	if len(lines) != len(wants) {
		t.Fatalf("%d lines, want %d: %+v", len(lines), len(wants), lines)
	}
	for i, w := range wants {
		l := lines[i]
		if l.No != w.no || string(l.Raw) != w.raw || !reflect.DeepEqual(l.Fail, w.fail) {
			t.Errorf("line %d: %d %s %+v\nwant %d %s %+v", i, l.No, l.Raw, l.Fail, w.no, w.raw, w.fail)
		}
		if (w.raw == "") != (l.Field == nil) {
			t.Errorf("line %d: Field set %v", i, l.Field != nil)
		}
		if w.raw != "" && !json.Valid(l.Raw) {
			t.Errorf("line %d: not JSON: %s", i, l.Raw)
		}
	}
	if end := lines[len(lines)-1].End; end.Offset != int64(len(file)) || end.Line != 12 {
		t.Errorf("last end %+v, want offset %d line 12", end, len(file))
	}

	// Errors of the importer named after the row's columns.
	f := lines[0].Field
	for field, col := range map[string]string{
		"values[0].value":        "value:title@de-DE",
		"values[2].value.amount": "value:price#web",
		"values[4]":              "value:new",
		"values[5].value":        "",
		"publications[0].status": "publication:web",
		"attributes.color[1]":    "attribute:color",
		"attributes.color":       "attribute:color",
		"attributes.size":        "",
		"categories[1]":          "categories",
		"family":                 "family",
		"status":                 "status",
		"code":                   "code",
		"parentUuid":             "",
		"":                       "",
	} {
		if got := f(field); got != col {
			t.Errorf("Field(%q) = %q, want %q", field, got, col)
		}
	}
	// The second row's values are other columns.
	if got := lines[1].Field("values[1].inputType"); got != "value:colour" {
		t.Errorf("row 6 Field(values[1].inputType) = %q", got)
	}
}

// Resuming at a row's end reads the same rows, with the same numbers and ends, as reading on.
func TestCSVResume(t *testing.T) {
	var b strings.Builder
	b.WriteString("code,value:title\r\n")
	for i := 0; i < 20; i++ {
		if i%3 == 0 {
			b.WriteString("P" + string(rune('A'+i)) + ",\"two\r\nlines\"\r\n")
		} else {
			b.WriteString("P" + string(rune('A'+i)) + ",one\r\n")
		}
	}
	file := b.String()
	all := readAll(t, openCSV(t, file, Position{}))
	if len(all) != 20 || all[0].No != 2 || all[1].No != 4 || all[19].End.Offset != int64(len(file)) {
		t.Fatalf("rows: %d, first %d, second %d", len(all), all[0].No, all[1].No)
	}
	for half := 0; half < len(all); half++ {
		rest := readAll(t, openCSV(t, file, all[half].End))
		if len(rest) != len(all)-half-1 {
			t.Fatalf("resumed after row %d: %d rows, want %d", half, len(rest), len(all)-half-1)
		}
		for i, l := range rest {
			w := all[half+1+i]
			if l.No != w.No || l.End != w.End || !bytes.Equal(l.Raw, w.Raw) {
				t.Errorf("resumed after row %d: %d %+v %s, want %d %+v %s", half, l.No, l.End, l.Raw, w.No, w.End, w.Raw)
			}
		}
	}
	// Resuming at the header's end, or before it, reads every row.
	if rest := readAll(t, openCSV(t, file, Position{Offset: 18, Line: 1})); len(rest) != 20 || rest[0].No != 2 {
		t.Errorf("resumed at the header's end: %d rows", len(rest))
	}
}

func TestCSVFileFails(t *testing.T) {
	for name, file := range map[string]string{
		"empty":            "",
		"only a BOM":       "\xEF\xBB\xBF",
		"no code":          "kind,family\nsimple,f\n",
		"a column twice":   "code,tags,tags\n",
		"the same value":   "code,value:title@de#web,value:title@de#web\n",
		"unknown column":   "code,name\n",
		"an empty column":  "code,,tags\n",
		"header not UTF-8": "code,attribute:\xff\n",
		"unclosed quote":   "\"code,tags\n",
	} {
		_, err := CSV(context.Background(), memFile(file), Position{}, testTypes)
		var fe *FileError
		if !errors.As(err, &fe) || fe.Reason == "" {
			t.Errorf("%s: %v, want a FileError", name, err)
		}
	}
	// The data types' lookup failing is the job's error, not the file's.
	boom := errors.New("db down")
	_, err := CSV(context.Background(), memFile("code,value:title\n"), Position{}, func(context.Context, string) (string, bool, error) { return "", false, boom })
	if !errors.Is(err, boom) {
		t.Errorf("lookup failing: %v", err)
	}
}

// A row over MaxLineBytes fails alone and is never held; the rows around it are read.
func TestCSVLongRow(t *testing.T) {
	long := strings.Repeat("x", MaxLineBytes)
	for name, file := range map[string]string{
		"plain":  "code,value:title\nA,a\nB," + long + "\nC,c\n",
		"quoted": "code,value:title\r\nA,a\r\nB,\"" + strings.Repeat("y\r\n", MaxLineBytes/3) + "\"\r\nC,c\r\n",
	} {
		lines := readAll(t, openCSV(t, file, Position{}))
		if len(lines) != 3 || lines[1].Fail == nil || lines[1].Fail[0].Code != "PAYLOAD_TOO_LARGE" || lines[1].Raw != nil {
			t.Fatalf("%s: %d lines: %+v", name, len(lines), lines)
		}
		if !strings.Contains(string(lines[2].Raw), `"code":"C"`) || lines[2].No != lines[1].End.Line+1 {
			t.Errorf("%s: the row after: %d %s (long row ends at %+v)", name, lines[2].No, lines[2].Raw, lines[1].End)
		}
	}
	// Exactly MaxLineBytes bytes (the line break aside) is not too long.
	cell := strings.Repeat("z", MaxLineBytes-len("B,"))
	lines := readAll(t, openCSV(t, "code,value:title\r\nB,"+cell+"\r\n", Position{}))
	if len(lines) != 1 || lines[0].Fail != nil {
		t.Errorf("a row of MaxLineBytes: %+v", lines[0].Fail)
	}
}

// BenchmarkCSVSource measures reading rows into product lines (no database).
func BenchmarkCSVSource(b *testing.B) {
	var f strings.Builder
	f.WriteString("code,kind,family,categories,tags,attribute:color,value:title@de-DE,value:title@en-GB,value:weight,value:price#web,publication:web\n")
	const rows = 10000
	for i := 0; i < rows; i++ {
		f.WriteString("SKU-")
		f.WriteString(strings.Repeat("9", 6))
		f.WriteString(`,simple,footwear,boots|sale,summer,red,"Stiefel, rot",Red boot,1.5,89.90 EUR,published` + "\n")
	}
	file := f.String()
	b.SetBytes(int64(len(file)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := CSV(context.Background(), memFile(file), Position{}, testTypes)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			l, err := s.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil || l.Raw == nil {
				b.Fatal(err, l.Fail)
			}
			n++
		}
		if n != rows {
			b.Fatalf("%d rows", n)
		}
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// appendJSONString writes every string as encoding/json reads it back.
func TestCSVJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", `quo"te`, `back\slash`, "tab\tnew\nline\rcr", "\x00\x01\x1f\x7f", "<&>", "ünïcödé ✓ \u2028", "#NULL"} {
		var back string
		if err := json.Unmarshal(jsonString(s), &back); err != nil || back != s {
			t.Errorf("jsonString(%q) = %s: reads back %q, %v", s, jsonString(s), back, err)
		}
	}
	if _, err := ParseCSVValue(DataText, "bad \xff"); err == nil {
		t.Error("ParseCSVValue of invalid UTF-8 succeeded")
	}
}

// BenchmarkFormatCSVValue measures writing values as cells (the export's side).
func BenchmarkFormatCSVValue(b *testing.B) {
	values := []struct {
		dataType string
		value    json.RawMessage
	}{
		{DataText, json.RawMessage(`"Stiefel rot"`)}, {DataDecimal, json.RawMessage(`"1.5"`)},
		{DataMoney, json.RawMessage(`{"amount":"89.90","currency":"EUR"}`)}, {DataInteger, json.RawMessage(`12`)},
	}
	for i := 0; i < b.N; i++ {
		v := values[i%len(values)]
		if _, err := FormatCSVValue(v.dataType, v.value); err != nil {
			b.Fatal(err)
		}
	}
}

// A long row of separators is read without keeping its cells (at most those of its first
// MaxLineBytes bytes).
func TestCSVLongRowOfSeparators(t *testing.T) {
	file := "code,tags\n" + strings.Repeat(",", 4*MaxLineBytes) + "\nA,x\n"
	s := openCSV(t, file, Position{})
	l, err := s.Next(context.Background())
	if err != nil || l.Fail == nil || l.Fail[0].Code != "PAYLOAD_TOO_LARGE" {
		t.Fatalf("%+v %v", l, err)
	}
	if cap(s.rd.ends) > 3*MaxLineBytes {
		t.Errorf("the long row kept %d cell ends", cap(s.rd.ends))
	}
	if l, err := s.Next(context.Background()); err != nil || l.No != 3 || !strings.Contains(string(l.Raw), `"A"`) {
		t.Errorf("the next row: %+v %v", l, err)
	}
}

// FuzzCSVSource: any bytes read without a panic, every line valid JSON or failed, and resuming at
// any row's end reads the same rows after it.
func FuzzCSVSource(f *testing.F) {
	for _, s := range []string{
		"code,tags\nA,x|y\n",
		"\xEF\xBB\xBFcode,value:title@de-DE\r\n\"A\",\"a\r\nb\"\r\n",
		"code,publication:web,attribute:c\nA,#NULL,##NULL\n,,\n\"B\"x,\",\n",
		"code,value:weight\nA,1.5\nB,x\nC",
		"code\n\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, file string) {
		s, err := CSV(context.Background(), memFile(file), Position{}, testTypes)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("not a FileError: %v", err)
			}
			return
		}
		all := readAll(t, s)
		for i, l := range all {
			if (l.Raw == nil) == (l.Fail == nil) || (l.Raw != nil && !json.Valid(l.Raw)) {
				t.Fatalf("line %d: %+v", i, l)
			}
			if i > 0 && (l.No <= all[i-1].End.Line || l.End.Offset <= all[i-1].End.Offset) {
				t.Fatalf("line %d at %d after %+v", i, l.No, all[i-1].End)
			}
		}
		if len(all) > 1 {
			rest := readAll(t, openCSV(t, file, all[0].End))
			if len(rest) != len(all)-1 {
				t.Fatalf("resumed: %d rows, want %d", len(rest), len(all)-1)
			}
			for i, l := range rest {
				if w := all[i+1]; l.No != w.No || l.End != w.End || !bytes.Equal(l.Raw, w.Raw) {
					t.Fatalf("resumed row %d: %+v, want %+v", i, l, w)
				}
			}
		}
	})
}
