package tour

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// exampleMarker comes right before each sh block of the README, outside the walk-through, that
// TestReadmeExamples runs.
const exampleMarker = "<!-- example: test/tour runs this block"

// example is an sh block of the README that the suite runs, with its first line's number.
type example struct {
	no    int
	lines []line
}

// text is the block as bash runs it.
func (ex example) text() string {
	var b strings.Builder
	for _, l := range ex.lines {
		b.WriteString(l.text + "\n")
	}
	return b.String()
}

// readmeExamples are the README's marked sh blocks.
func readmeExamples(t *testing.T) []example {
	t.Helper()
	lines := readLines(t, readmePath)
	var out []example
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], exampleMarker) {
			continue
		}
		if i+1 >= len(lines) || lines[i+1] != "```sh" {
			t.Fatalf("%s:%d: the example marker is not followed by a ```sh block", readmePath, i+1)
		}
		ex := example{no: i + 3}
		for i += 2; i < len(lines) && lines[i] != "```"; i++ {
			ex.lines = append(ex.lines, line{no: i + 1, text: lines[i]})
		}
		out = append(out, ex)
	}
	return out
}

// readmePrelude is the walk-through's definitions the examples use: H, J and the uuid function (its
// lines from `H=` to the end of `uuid() {`).
func readmePrelude(t *testing.T) string {
	t.Helper()
	lines := readLines(t, readmePath)
	start := -1
	for i, l := range lines {
		switch {
		case start < 0 && strings.HasPrefix(l, `H="Authorization: Bearer $TOKEN"`):
			start = i
		case start >= 0 && l == "}":
			return strings.Join(lines[start:i+1], "\n")
		}
	}
	t.Fatalf("%s: no H=… through uuid() { … } in the walk-through", readmePath)
	return ""
}

// wantedStatuses are the statuses an example's comments promise, one per curl command in order
// (0: none promised): a command's trailing comment that starts with a status (`# 412`).
func wantedStatuses(t *testing.T, ex example) []int {
	var out []int
	for _, c := range commands(t, ex.lines) {
		want := 0
		if m := trailingStatus.FindStringSubmatch(c.text); m != nil {
			want, _ = strconv.Atoi(m[1])
		}
		out = append(out, want)
	}
	return out
}

var trailingStatus = regexp.MustCompile(`\s#\s*([1-5][0-9]{2})\b[^'"]*$`)

// runExample runs an example with bash against this package's catalogd for a tenant of its own,
// after prelude (the walk-through's definitions), with extra variables; curl writes each answer's
// status to the standard error, so the statuses come back in order whatever the example does with
// the output.
func runExample(t *testing.T, prelude string, ex example, tenant string, vars ...string) (stdout string, statuses []int) {
	t.Helper()
	script := "set -euo pipefail\n" + prelude + "\n" +
		`curl() { command curl -w '%{stderr}status %{http_code}\n' "$@"; }` + "\n" + ex.text()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), append([]string{"BASE=" + env.BaseURL, "TOKEN=" + apptest.Token(tenant)}, vars...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s:%d: the example failed: %v\n%s\n%s", readmePath, ex.no, err, out.String(), errb.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(errb.String()), "\n") {
		code, ok := strings.CutPrefix(l, "status ")
		n, err := strconv.Atoi(code)
		if !ok || err != nil {
			t.Fatalf("%s:%d: the example wrote to its standard error: %q", readmePath, ex.no, l)
		}
		statuses = append(statuses, n)
	}
	return out.String(), statuses
}

// TestReadmeExamples runs each marked example of the README outside the walk-through (idempotency,
// ETags and HEAD, the product search) against a fresh tenant: every curl command runs once and
// answers the status its comment promises, and the answers say what the prose says.
func TestReadmeExamples(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal(err)
	}
	examples, prelude := readmeExamples(t), readmePrelude(t)
	seen := map[string]bool{}
	for _, ex := range examples {
		block := ex.text()
		tenant := "example-" + apptest.RandomHex(4)
		c := env.ClientFor(t, tenant)
		var vars []string
		var check func(out string)
		switch {
		case strings.Contains(block, "Idempotency-Key"):
			seen["idempotency"] = true
			check = func(out string) {
				if n := strings.Count(strings.ToLower(out), "idempotency-replayed: true"); n != 1 {
					t.Errorf("idempotency example: %d answers with Idempotency-Replayed: true, want 1:\n%s", n, out)
				}
				if items := apptest.Want(t, c.Get("/v1/attributes?codes[eq]=weight"), 200).Items(); len(items) != 1 {
					t.Errorf("idempotency example: %d attributes weight, want 1", len(items))
				}
			}
		case strings.Contains(block, "If-Match"):
			seen["etag"] = true
			check = func(out string) {
				if !strings.Contains(out, `"PRECONDITION_FAILED"`) || !strings.Contains(out, `"displayName":"Finish"`) {
					t.Errorf("etag example: want the update's answer and a 412 problem:\n%s", out)
				}
			}
		case strings.Contains(block, "notReadyChannelUuids"):
			seen["search"] = true
			shoes, red, web, want, others := searchFixtures(t, c)
			vars = []string{"SHOES=" + shoes, "RED=" + red, "WEB=" + web}
			check = func(out string) {
				if !strings.Contains(out, want) || !strings.Contains(out, `"totalItems":1`) {
					t.Errorf("search example: want only %s:\n%s", want, out)
				}
				for _, o := range others {
					if strings.Contains(out, o) {
						t.Errorf("search example: %s is not red, in Shoes and not ready for web, but answered:\n%s", o, out)
					}
				}
			}
		default:
			t.Errorf("%s:%d: a marked example this test does not know", readmePath, ex.no)
			continue
		}
		out, statuses := runExample(t, prelude, ex, tenant, vars...)
		want := wantedStatuses(t, ex)
		if len(statuses) != len(want) {
			t.Errorf("%s:%d: %d curl answers, the block has %d curl commands:\n%s", readmePath, ex.no, len(statuses), len(want), out)
			continue
		}
		for i, w := range want {
			if w != 0 && statuses[i] != w {
				t.Errorf("%s:%d: curl command %d answered %d, its comment says %d:\n%s", readmePath, ex.no, i+1, statuses[i], w, out)
			}
		}
		check(out)
	}
	for _, k := range []string{"idempotency", "etag", "search"} {
		if !seen[k] {
			t.Errorf("the README has no marked %s example", k)
		}
	}
}

// searchFixtures builds what the search example asks for: Shoes > Running, colour red and blue, a
// web channel, and products of which only one is in Shoes, red and not ready for web.
func searchFixtures(t *testing.T, c *apptest.Client) (shoes, red, web, want string, others []string) {
	t.Helper()
	post := func(path string, kv ...any) string {
		return apptest.Str(apptest.Want(t, c.Post(path, apptest.Body(kv...)), 201).Obj(), "uuid")
	}
	shoes = post("/v1/categories", "code", "shoes")
	running := post("/v1/categories", "code", "running", "parentUuid", shoes)
	hats := post("/v1/categories", "code", "hats")
	colour := post("/v1/attributes", "code", "colour")
	red, blue := post("/v1/attributes/"+colour+"/terms", "code", "red"), post("/v1/attributes/"+colour+"/terms", "code", "blue")
	web = post("/v1/channels", "code", "web", "localeUuids", []string{})
	product := func(code, category, term string) string {
		p := post("/v1/products", "code", code, "kind", "simple")
		post("/v1/products/"+p+"/categories", "categoryUuid", category)
		pa := post("/v1/products/"+p+"/attributes", "attributeUuid", colour)
		post("/v1/products/"+p+"/attributes/"+pa+"/terms", "termUuid", term)
		return p
	}
	want = product("red-runner", running, red)
	blueRunner := product("blue-runner", running, blue)
	redHat := product("red-hat", hats, red)
	// Red, in Shoes, and ready for web: active, with a publication there (no requirements).
	ready := product("ready-runner", running, red)
	apptest.Want(t, c.Patch("/v1/products/"+ready+"/actions/lifecycle", apptest.Body("transition", "activate")), 200)
	pub := post("/v1/products/"+ready+"/publications", "channelUuid", web)
	r := apptest.Want(t, c.Get("/v1/products/"+ready+"/publications/"+pub+"/readiness"), 200)
	if r.Obj()["ready"] != true {
		t.Fatalf("the ready product's readiness: %s", r.Raw)
	}
	return shoes, red, web, want, []string{blueRunner, redHat, ready}
}
