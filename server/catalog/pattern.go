package catalog

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// Bounded work for the `pattern` constraint (DESIGN.md "Limits and fairness"). Go's regexp is RE2:
// no backtracking blow-up, but its cost is still (characters of the value) × (instructions of the
// compiled program), and the program of a short pattern can be huge: `\pL{1000}` is 10 characters
// and 1 000 instructions, so the 961-character pattern of the attack compiled to ~10⁵ instructions
// and a 20 KB value took ~90 s, compiled again for every value. Parsing is not free either: each
// Unicode class costs ~0.1 ms to build, and under case folding ((?i)) a wide range costs ~5 ms.
// The limits (measured in BenchmarkPatternWorst, docs/design.md "Bad input and bounded work"):
//
//   - a pattern is 1 to maxPatternLength characters, with at most maxPatternClasses character
//     classes (`[…]`, `\p…`, `\P…`), and no case-insensitive flag (write [Aa]): parsing stays
//     under a few milliseconds;
//   - its compiled program has at most maxPatternProgram instructions, estimated from the parse
//     tree before anything is compiled;
//   - a value is checked against a pattern only when (its characters) × (the program's
//     instructions) ≤ patternBudget, so a value may be up to patternBudget / program characters
//     long (131 for the most complex pattern, 6 553 for a 20-instruction one); the allowed values
//     of an input type with a pattern share one such budget. One check then costs at most a few
//     milliseconds, and a bulk of 100 a fraction of a second.
//
// Compiled patterns are cached (patternCache), so a pattern is compiled once, not per value.
const (
	maxPatternLength  = 256
	maxPatternClasses = 16
	maxPatternProgram = 1000
	patternBudget     = 1 << 17
)

// compiledPattern is a pattern that passed the limits.
type compiledPattern struct {
	re   *regexp.Regexp
	prog int // instructions of the compiled program
}

// maxChars is the longest value (in characters) checked against the pattern.
func (p *compiledPattern) maxChars() int { return patternBudget / p.prog }

var patternCache struct {
	sync.Mutex
	m map[string]*compiledPattern
}

const patternCacheSize = 512

// compilePattern checks a pattern against the limits and compiles it; the error is the message
// for constraints.pattern.
func compilePattern(p string) (*compiledPattern, error) {
	patternCache.Lock()
	cp := patternCache.m[p]
	patternCache.Unlock()
	if cp != nil {
		return cp, nil
	}
	if n := utf8.RuneCountInString(p); n == 0 || n > maxPatternLength {
		return nil, fmt.Errorf("must be 1 to %d characters", maxPatternLength)
	}
	if n := patternClasses(p); n > maxPatternClasses {
		return nil, fmt.Errorf("has %d character classes ([…], \\p{…}, \\P{…}): at most %d", n, maxPatternClasses)
	}
	if foldsCase(p) {
		return nil, fmt.Errorf("must not use the case-insensitive flag i: write both cases, such as [Aa]")
	}
	tree, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("is not a valid RE2 regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	if programSize(tree, maxPatternProgram)+2 > maxPatternProgram { // +2: the program's fail and match
		return nil, fmt.Errorf("is too complex: it compiles to more than %d instructions (a repetition such as {1,100} counts its item once per repetition)", maxPatternProgram)
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil, fmt.Errorf("is not a valid RE2 regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("is not a valid RE2 regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	cp = &compiledPattern{re: re, prog: max(len(prog.Inst), 1)}
	patternCache.Lock()
	if patternCache.m == nil || len(patternCache.m) >= patternCacheSize {
		patternCache.m = map[string]*compiledPattern{}
	}
	patternCache.m[p] = cp
	patternCache.Unlock()
	return cp, nil
}

// patternClasses counts the character classes of a pattern as written: each unescaped `[` and
// each `\p` or `\P` (an over-count inside a class such as [[] refuses a pattern a little early).
func patternClasses(p string) int {
	n := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i+1 < len(p) && (p[i+1] == 'p' || p[i+1] == 'P') {
				n++
			}
			i++
		case '[':
			n++
		}
	}
	return n
}

// foldsCase reports whether a pattern sets the i flag: `(?i)`, `(?si:…)`, … (an escaped `\(`
// followed by `?i` is not a valid pattern anyway).
func foldsCase(p string) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '\\' {
			i++
			continue
		}
		if p[i] != '(' || p[i+1] != '?' {
			continue
		}
		for j := i + 2; j < len(p); j++ {
			c := p[j]
			if c == 'i' {
				return true
			}
			if !strings.ContainsRune("msU-", rune(c)) {
				break
			}
		}
	}
	return false
}

// programSize estimates (from above, closely) the instructions regexp/syntax compiles tree to,
// without building it; it stops counting past limit.
func programSize(re *syntax.Regexp, limit int) int {
	sat := func(n int) int { return min(n, limit+1) }
	switch re.Op {
	case syntax.OpLiteral:
		return sat(len(re.Rune))
	case syntax.OpCapture:
		return sat(programSize(re.Sub[0], limit) + 2)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return sat(programSize(re.Sub[0], limit) + 1)
	case syntax.OpRepeat:
		sub := programSize(re.Sub[0], limit)
		if re.Max == -1 {
			return sat(re.Min*sub + sub + 1)
		}
		return sat(re.Min*sub + (re.Max-re.Min)*(sub+1))
	case syntax.OpConcat, syntax.OpAlternate:
		n := 0
		for _, s := range re.Sub {
			n = sat(n + programSize(s, limit) + 1)
		}
		return n
	}
	return 1
}
