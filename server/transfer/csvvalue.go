package transfer

// The text forms of a CSV file of products (API.md "CSV (products)"), shared by imports (parse)
// and exports (format): the column names, the cells of codes and the values by data type.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/catalogd/catalogd/server/jsonpb"
)

// CSVNull is the cell that deletes: a value, an attribute, a publication, a reference, or empties
// a set of codes. A cell of one or more "#" then "NULL" ("##NULL") is the text with one "#" less,
// so that any text can be written (EscapeCSVCell).
const CSVNull = "#NULL"

// nullLike: s is one or more "#" then "NULL".
func nullLike(s string) bool {
	rest := strings.TrimLeft(s, "#")
	return len(rest) < len(s) && rest == "NULL"
}

// EscapeCSVCell is the cell of text s: s itself, or with one more "#" when it reads as CSVNull
// or as an escaped one.
func EscapeCSVCell(s string) string {
	if len(s) > 0 && s[0] == '#' && nullLike(s) {
		return "#" + s
	}
	return s
}

// unescapeCell reads a cell: its text and whether it is CSVNull.
func unescapeCell(s string) (string, bool) {
	if len(s) == 0 || s[0] != '#' {
		return s, false
	}
	if s == CSVNull {
		return "", true
	}
	if nullLike(s) {
		return s[1:], false
	}
	return s, false
}

// CSVCodeSeparator separates the codes of a cell (categories, tags, an attribute's terms).
const CSVCodeSeparator = "|"

// JoinCSVCodes is the cell of a list of codes; a code holding the separator cannot be written.
func JoinCSVCodes(codes []string) (string, error) {
	for _, c := range codes {
		if strings.Contains(c, CSVCodeSeparator) {
			return "", fmt.Errorf("the code %q holds %q, the separator of codes in a CSV cell", c, CSVCodeSeparator)
		}
	}
	return EscapeCSVCell(strings.Join(codes, CSVCodeSeparator)), nil
}

// splitCodes is the list of codes of a cell (each trimmed, empty ones skipped).
func splitCodes(s string) []string {
	out := []string{}
	for _, c := range strings.Split(s, CSVCodeSeparator) {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// Column kinds: what a column of a CSV of products sets.
const (
	ColCode        = "code"
	ColKind        = "kind"
	ColFamily      = "family"
	ColParent      = "parent"
	ColBrand       = "brand"
	ColStatus      = "status"
	ColCategories  = "categories"
	ColTags        = "tags"
	ColAttribute   = "attribute"   // attribute:<attributeCode>
	ColValue       = "value"       // value:<inputType>[@<locale>][#<channel>]
	ColPublication = "publication" // publication:<channelCode>
)

// plainColumns are the columns named by their kind alone, in the order of a file's columns.
var plainColumns = []string{ColCode, ColKind, ColFamily, ColParent, ColBrand, ColStatus, ColCategories, ColTags}

// CSVColumn is a column of a CSV of products.
type CSVColumn struct {
	// Kind is one of the Col… constants.
	Kind string
	// Code is the attribute's (attribute), the input type's (value) or the channel's
	// (publication) code.
	Code string
	// Locale and Channel are a value column's codes ("" for none).
	Locale, Channel string
}

// String is the column's name in a header.
func (c CSVColumn) String() string {
	switch c.Kind {
	case ColAttribute, ColPublication:
		return c.Kind + ":" + c.Code
	case ColValue:
		s := ColValue + ":" + c.Code
		if c.Locale != "" {
			s += "@" + c.Locale
		}
		if c.Channel != "" {
			s += "#" + c.Channel
		}
		return s
	}
	return c.Kind
}

// ParseCSVColumn reads a header's column name. A value column's input type code ends at the
// first "@" or "#", its locale at the "#" (an input type code holding either cannot be a column).
func ParseCSVColumn(name string) (CSVColumn, error) {
	for _, k := range plainColumns {
		if name == k {
			return CSVColumn{Kind: k}, nil
		}
	}
	kind, code, ok := strings.Cut(name, ":")
	if !ok || code == "" {
		return CSVColumn{}, fmt.Errorf("unknown column %q: the columns are %s, attribute:<attributeCode>, value:<inputTypeCode>[@<localeCode>][#<channelCode>] and publication:<channelCode>",
			name, strings.Join(plainColumns, ", "))
	}
	switch kind {
	case ColAttribute, ColPublication:
		return CSVColumn{Kind: kind, Code: code}, nil
	case ColValue:
		c := CSVColumn{Kind: ColValue}
		rest := code
		if i := strings.IndexByte(rest, '#'); i >= 0 {
			rest, c.Channel = rest[:i], rest[i+1:]
			if c.Channel == "" {
				return CSVColumn{}, fmt.Errorf("column %q: no channel code after #", name)
			}
		}
		if i := strings.IndexByte(rest, '@'); i >= 0 {
			rest, c.Locale = rest[:i], rest[i+1:]
			if c.Locale == "" {
				return CSVColumn{}, fmt.Errorf("column %q: no locale code after @", name)
			}
		}
		if c.Code = rest; c.Code == "" {
			return CSVColumn{}, fmt.Errorf("column %q: no input type code", name)
		}
		return c, nil
	}
	return CSVColumn{}, fmt.Errorf("unknown column %q: the columns with a code are attribute:<attributeCode>, value:<inputTypeCode>[@<localeCode>][#<channelCode>] and publication:<channelCode>", name)
}

// Data types of input types (their API names).
const (
	DataText     = "text"
	DataRichText = "rich_text"
	DataInteger  = "integer"
	DataDecimal  = "decimal"
	DataBoolean  = "boolean"
	DataDate     = "date"
	DataDateTime = "date_time"
	DataURL      = "url"
	DataMoney    = "money"
	DataJSON     = "json"
)

// isInteger: s is -?(0|[1-9][0-9]*).
func isInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	return digits(s)
}

// isDecimal: s is an integer, then perhaps a dot and digits.
func isDecimal(s string) bool {
	whole, frac, dot := strings.Cut(s, ".")
	return isInteger(whole) && (!dot || (frac != "" && digits(frac)))
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isCurrency: s is three capital letters.
func isCurrency(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// ParseCSVValue is the JSON value (as the API takes it) of a value cell's text for dataType:
//
//	text, rich_text  the cell as it is (spaces and line breaks kept)
//	url, date,       the cell trimmed, as a string ("2024-01-31", "2024-01-31T10:00:00Z"); the
//	date_time        input type's checks judge it
//	integer          -?digits, without exponent or separators: a JSON number (-5)
//	decimal          -?digits[.digits], a dot and no exponent: a string ("12.50")
//	boolean          true or false (any case)
//	money            "<amount> <currency>": a decimal as above, a space, an ISO 4217 code
//	                 ("89.90 EUR") → {"amount":"89.90","currency":"EUR"}
//	json             the JSON text of the value (not null)
//
// A cell escaped by EscapeCSVCell ("##NULL") is read as its text ("#NULL"); an empty cell and
// CSVNull are no value (they leave the value alone or delete it): an error here.
func ParseCSVValue(dataType, cell string) (json.RawMessage, error) {
	cell, null := unescapeCell(cell)
	s := strings.TrimSpace(cell)
	if !utf8.ValidString(cell) {
		return nil, errors.New("must be UTF-8 text")
	}
	if null || s == "" {
		return nil, errors.New("no value: an empty cell leaves the value alone, " + CSVNull + " deletes it")
	}
	switch dataType {
	case DataText, DataRichText:
		return jsonString(cell), nil
	case DataURL, DataDate, DataDateTime:
		return jsonString(s), nil
	case DataInteger:
		if !isInteger(s) {
			return nil, errors.New("must be an integer such as 42 or -5 (digits, no separators or exponent)")
		}
		return json.RawMessage(s), nil
	case DataDecimal:
		if !isDecimal(s) {
			return nil, errors.New("must be a decimal such as 12.50 or -0.5 (a dot, no separators or exponent)")
		}
		return jsonString(s), nil
	case DataBoolean:
		switch strings.ToLower(s) {
		case "true":
			return json.RawMessage("true"), nil
		case "false":
			return json.RawMessage("false"), nil
		}
		return nil, errors.New("must be true or false")
	case DataMoney:
		parts := strings.Fields(s)
		if len(parts) != 2 || !isDecimal(parts[0]) || !isCurrency(parts[1]) {
			return nil, errors.New(`must be an amount and a currency code such as "89.90 EUR"`)
		}
		b := append([]byte(`{"amount":`), jsonString(parts[0])...)
		b = append(append(b, `,"currency":`...), jsonString(parts[1])...)
		return append(b, '}'), nil
	case DataJSON:
		if !json.Valid([]byte(s)) {
			return nil, errors.New("must be JSON text")
		}
		if s == "null" {
			return nil, errors.New("must not be null (" + CSVNull + " deletes a value)")
		}
		var b bytes.Buffer
		_ = json.Compact(&b, []byte(s))
		return b.Bytes(), nil
	}
	return nil, fmt.Errorf("unknown data type %q", dataType)
}

// FormatCSVValue is the cell of value (the API's JSON) for dataType: the text ParseCSVValue reads
// back as the same value (a decimal given as a JSON number is written as its literal). A text
// that reads as CSVNull is escaped; an empty text is an empty cell, which an import reads as
// "leave the value alone".
func FormatCSVValue(dataType string, value json.RawMessage) (string, error) {
	value = bytes.TrimSpace(value)
	if len(value) == 0 || string(value) == "null" {
		return "", errors.New("null is not a value")
	}
	bad := func() (string, error) {
		return "", fmt.Errorf("%s is not a %s value", value, dataType)
	}
	var out string
	switch dataType {
	case DataText, DataRichText, DataURL, DataDate, DataDateTime:
		var ok bool
		if out, ok = unquote(value); !ok {
			return bad()
		}
	case DataInteger:
		n, ok := number(value)
		if !ok || value[0] == '"' || !isInteger(n) {
			return bad()
		}
		out = n
	case DataDecimal:
		n, ok := number(value)
		if !ok || !isDecimal(n) {
			return bad()
		}
		out = n
	case DataBoolean:
		switch string(value) {
		case "true", "false":
			out = string(value)
		default:
			return bad()
		}
	case DataMoney:
		var m struct {
			Amount   json.RawMessage `json:"amount"`
			Currency json.RawMessage `json:"currency"`
		}
		if err := json.Unmarshal(value, &m); err != nil || value[0] != '{' {
			return bad()
		}
		amount, ok := number(m.Amount)
		cur, curOK := unquote(m.Currency)
		if !ok || !isDecimal(amount) || !curOK || !isCurrency(cur) {
			return bad()
		}
		out = amount + " " + cur
	case DataJSON:
		var b bytes.Buffer
		if err := json.Compact(&b, value); err != nil {
			return bad()
		}
		out = b.String()
	default:
		return "", fmt.Errorf("unknown data type %q", dataType)
	}
	return EscapeCSVCell(out), nil
}

// jsonString is s (UTF-8) as a JSON string.
func jsonString(s string) json.RawMessage { return jsonpb.AppendString(nil, s) }

// unquote is the string of the JSON string v.
func unquote(v json.RawMessage) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	if bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v) {
		inner := v[1 : len(v)-1]
		if bytes.IndexByte(inner, '"') < 0 && bytes.IndexFunc(inner, func(r rune) bool { return r < 0x20 }) < 0 {
			return string(inner), true // nothing escaped
		}
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// number is the text of a JSON number or of a string (a decimal's two forms).
func number(v json.RawMessage) (string, bool) {
	if len(v) == 0 {
		return "", false
	}
	if v[0] == '"' {
		return unquote(v)
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	if dec.Decode(&n) != nil {
		return "", false
	}
	return n.String(), true
}
