package openapits

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// redoclyEnv keeps @redocly/cli off the network: no telemetry, no update or version check
// (redocly.yaml also says `telemetry: off`). The lint reads only the local file.
var redoclyEnv = []string{
	"REDOCLY_TELEMETRY=off",
	"REDOCLY_SUPPRESS_UPDATE_NOTICE=true",
	"REDOCLY_SUPPRESS_NOTIFICATIONS=true",
	"NO_COLOR=1",
}

// lintReport is `redocly lint --format json`.
type lintReport struct {
	Totals struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Ignored  int `json:"ignored"`
	} `json:"totals"`
	Version  string `json:"version"`
	Problems []struct {
		RuleID   string `json:"ruleId"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Location []struct {
			Pointer string `json:"pointer"`
		} `json:"location"`
	} `json:"problems"`
}

// An independent linter (@redocly/cli, the `recommended` ruleset of redocly.yaml)
// finds no error in the served document. Warnings are printed, grouped by rule.
func TestRedoclyLint(t *testing.T) {
	t.Parallel()
	dir := setup(t)
	doc := fetchDocument(t)

	res := run(t, dir, redoclyEnv, 5*time.Minute, filepath.Join(dir, "node_modules", ".bin", "redocly"),
		"lint", "--config", filepath.Join(dir, "redocly.yaml"), "--format", "json", "--max-problems", "100000", doc)
	var rep lintReport
	if err := json.Unmarshal([]byte(res.Stdout), &rep); err != nil {
		t.Fatalf("redocly lint (exit %d) printed no JSON report: %v\nstdout:\n%s\nstderr:\n%s", res.Code, err, res.Stdout, res.Stderr)
	}
	t.Logf("@redocly/cli %s lint: %d errors, %d warnings, %d ignored in %s",
		rep.Version, rep.Totals.Errors, rep.Totals.Warnings, rep.Totals.Ignored, res.Took.Round(time.Millisecond))

	// Grouped by severity and rule; each group prints at most maxShown locations.
	const maxShown = 50
	byRule := map[string][]string{}
	for _, p := range rep.Problems {
		where := "?"
		if len(p.Location) > 0 {
			where = p.Location[0].Pointer
		}
		key := p.Severity + " " + p.RuleID
		byRule[key] = append(byRule[key], where+": "+p.Message)
	}
	rules := make([]string, 0, len(byRule))
	for r := range byRule {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	for _, r := range rules {
		list := byRule[r]
		shown := list[:min(len(list), maxShown)]
		msg := fmt.Sprintf("redocly %s (%d):\n  %s", r, len(list), strings.Join(shown, "\n  "))
		if len(list) > len(shown) {
			msg += fmt.Sprintf("\n  … and %d more", len(list)-len(shown))
		}
		if strings.HasPrefix(r, "error ") {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}
	if len(rep.Problems) != rep.Totals.Errors+rep.Totals.Warnings {
		t.Errorf("the report counts %d errors and %d warnings but lists %d problems",
			rep.Totals.Errors, rep.Totals.Warnings, len(rep.Problems))
	}
	if res.Code != 0 && rep.Totals.Errors == 0 {
		t.Errorf("redocly lint exited %d with no error in its report:\n%s", res.Code, res.Stderr)
	}
}
