package measure

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// ParamRE matches the parameters $1, $2 … of a statement.
var ParamRE = regexp.MustCompile(`\$(\d+)`)

// Literal substitutes the arguments into sql as SQL literals: the statement the service sends,
// as text for pgbench scripts and EXPLAIN.
func Literal(sql string, args []any) string {
	return ParamRE.ReplaceAllStringFunc(sql, func(p string) string {
		i, _ := strconv.Atoi(p[1:])
		return Lit(args[i-1])
	})
}

// Lit is one value as an SQL literal: text, text[], uuid, uuid[], timestamptz, or its Go text
// (numbers, booleans).
func Lit(v any) string {
	switch x := v.(type) {
	case string:
		return Quote(x)
	case []string:
		q := make([]string, len(x))
		for i, s := range x {
			q[i] = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
		}
		return Quote("{" + strings.Join(q, ",") + "}")
	case uuid.UUID:
		return Quote(x.String()) + "::uuid"
	case []uuid.UUID:
		q := make([]string, len(x))
		for i, u := range x {
			q[i] = u.String()
		}
		return Quote("{"+strings.Join(q, ",")+"}") + "::uuid[]"
	case time.Time:
		return Quote(x.UTC().Format("2006-01-02 15:04:05.999999Z07:00")) + "::timestamptz"
	default:
		return fmt.Sprint(x)
	}
}

// Quote is s as an SQL string literal.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
