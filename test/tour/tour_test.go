package tour

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// step is one command of the transcript the script prints: "$ curl …" and then "<status> <answer>".
type step struct {
	line   string
	method string
	path   string // the path with every uuid written {}
	status int
	answer []byte
}

func (s step) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(s.answer, &m); err != nil {
		t.Fatalf("%s: the answer is not a JSON object: %v\n%s", s.line, err, s.answer)
	}
	return m
}

var uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// transcript reads the steps of the script's standard output.
func transcript(t *testing.T, out, base string) []step {
	t.Helper()
	lines := strings.Split(out, "\n")
	var steps []step
	for i := 0; i < len(lines); i++ {
		cmd, ok := strings.CutPrefix(lines[i], "$ curl ")
		if !ok {
			continue
		}
		s := step{line: lines[i], method: "GET"}
		if m := methodRE.FindStringSubmatch(" " + cmd); m != nil {
			s.method = m[1]
		}
		_, rest, found := strings.Cut(cmd, base)
		if !found {
			t.Fatalf("a command of the transcript is not sent to %s: %s", base, lines[i])
		}
		s.path = uuidRE.ReplaceAllString(regexp.MustCompile(`^/[^\s'?]*`).FindString(rest), "{}")
		if strings.HasPrefix(s.path, "/blobs/") {
			s.path = signedPath
		}
		if i+1 >= len(lines) {
			t.Fatalf("no answer after %s", lines[i])
		}
		code, answer, _ := strings.Cut(lines[i+1], " ")
		n, err := strconv.Atoi(code)
		if err != nil {
			t.Fatalf("the line after %s is not `<status> <answer>`: %q", lines[i], lines[i+1])
		}
		s.status, s.answer = n, []byte(answer)
		steps = append(steps, s)
		i++
	}
	return steps
}

// TestTour runs scripts/tour.sh against this package's fresh catalogd, as a reader would run it
// against `make run`: it must exit 0 with "tour complete", having run every command of the
// walk-through once, in order, each answered with the status it expects, and the catalog it built
// must be the one the README describes.
func TestTour(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("scripts/tour.sh needs %s: %v", tool, err)
		}
	}
	tenant := "tour-" + apptest.RandomHex(4)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(root, scriptPath))
	cmd.Dir = t.TempDir() // the script finds the repository itself
	cmd.Env = append(os.Environ(), "BASE="+env.BaseURL, "TOKEN="+apptest.Token(tenant))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	t.Logf("scripts/tour.sh (%s):\n%s", time.Since(start).Round(time.Millisecond), stdout.String())
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		t.Fatalf("scripts/tour.sh exited with %d:\n%s", exit.ExitCode(), stderr.String())
	case err != nil:
		t.Fatalf("scripts/tour.sh: %v\n%s", err, stderr.String())
	}
	if s := strings.TrimSpace(stderr.String()); s != "" {
		t.Errorf("scripts/tour.sh wrote to its standard error:\n%s", s)
	}
	out := strings.TrimRight(stdout.String(), "\n")
	if last := out[strings.LastIndex(out, "\n")+1:]; last != "tour complete" {
		t.Fatalf("last line %q, want %q", last, "tour complete")
	}

	// Every command of the walk-through ran, once, in order, answered with the status the script
	// expects (a POST 201, the others 200).
	walk, _ := scriptWalk(t)
	want := commands(t, walk)
	steps := transcript(t, out, env.BaseURL)
	if len(want) < 30 {
		t.Fatalf("only %d curl commands in the walk-through of %s", len(want), scriptPath)
	}
	if len(steps) != len(want) {
		t.Errorf("%d commands in the transcript, %d in the walk-through", len(steps), len(want))
	}
	for i := 0; i < len(steps) && i < len(want); i++ {
		s, w := steps[i], want[i]
		if s.method != w.method || s.path != w.path {
			t.Errorf("step %d ran %s %s, the walk-through (%s:%d) has %s %s", i+1, s.method, s.path, scriptPath, w.no, w.method, w.path)
		}
		if code := map[bool]int{true: 201, false: 200}[s.method == "POST"]; s.status != code {
			t.Errorf("step %d: %s answered %d, want %d", i+1, s.line, s.status, code)
		}
	}

	// What the answers say.
	find := func(method, path string) []step {
		var out []step
		for _, s := range steps {
			if s.method == method && s.path == path {
				out = append(out, s)
			}
		}
		if len(out) == 0 {
			t.Fatalf("no %s %s in the transcript", method, path)
		}
		return out
	}
	removed := []map[string]any{}
	if err := json.Unmarshal(find("PATCH", "/v1/attributes/bulk/actions/lifecycle")[0].answer, &removed); err != nil || len(removed) != 1 || removed[0]["status"] != "removed" {
		t.Errorf("bulk remove answered %v (%v), want one removed attribute", removed, err)
	}
	values := find("POST", "/v1/products/{}/input-values")
	if len(values) != 2 {
		t.Fatalf("%d input values set, want 2", len(values))
	}
	if v := values[0].obj(t); v["value"] != "Red T-shirt" || v["localeUuid"] == nil {
		t.Errorf("the title answered %v", v)
	}
	// A decimal sent as the JSON number 19.99 comes back as the exact string.
	if v := values[1].obj(t); v["value"] != "19.99" || v["channelUuid"] == nil {
		t.Errorf("the price answered %v, want value \"19.99\" on a channel", v)
	}
	ready := find("GET", "/v1/products/{}/publications/{}/readiness")
	if len(ready) != 2 {
		t.Fatalf("readiness asked %d times, want 2", len(ready))
	}
	first := ready[0].obj(t)
	var kinds []string
	for _, m := range first["missing"].([]any) {
		kinds = append(kinds, fmt.Sprint(m.(map[string]any)["kind"]))
	}
	sort.Strings(kinds)
	if first["ready"] != false || strings.Join(kinds, ",") != "input_type,product" {
		t.Errorf("readiness before the price and the activation: %s, want not ready, missing the product's activation and the price", ready[0].answer)
	}
	if second := ready[1].obj(t); second["ready"] != true || len(second["missing"].([]any)) != 0 {
		t.Errorf("readiness at the end: %s, want ready", ready[1].answer)
	}
	// The codes end with the walk-through's random suffix R (so that it can run again in a tenant).
	color, _ := find("POST", "/v1/attributes")[0].obj(t)["code"].(string)
	r, ok := strings.CutPrefix(color, "color-")
	if !ok || r == "" || strings.Trim(r, "0123456789") != "" {
		t.Fatalf("the first attribute's code is %q, want color-<R>, R=$RANDOM$RANDOM", color)
	}
	product := find("GET", "/v1/products/{}")[0].obj(t)
	if product["code"] != "TSHIRT-RED-"+r || product["status"] != "active" || product["featuredAssetUuid"] == nil {
		t.Errorf("the whole product: code %v, status %v, featuredAssetUuid %v", product["code"], product["status"], product["featuredAssetUuid"])
	}
	got := map[string]bool{}
	for _, v := range product["inputValues"].([]any) {
		v := v.(map[string]any)
		got[fmt.Sprint(v["value"])] = v["inherited"].(bool)
	}
	if inherited, ok := got["Red T-shirt"]; !ok || !inherited || got["19.99"] || len(got) != 2 {
		t.Errorf("the variant's input values %v, want its own price and the parent's title, inherited", got)
	}
	if pubs := product["publications"].([]any); len(pubs) != 1 {
		t.Errorf("the variant has %d publications, want 1", len(pubs))
	}
	if put := find("PUT", signedPath)[0].obj(t); put["sizeBytes"] != float64(18) {
		t.Errorf("the transfer answered %v, want 18 bytes stored", put)
	}
	if f := find("PATCH", "/v1/assets/{}/files/{}/actions/complete-upload")[0].obj(t); f["status"] != "uploaded" || f["checksumSha256"] == nil {
		t.Errorf("complete answered %v, want an uploaded file with its checksum", f)
	}
	file := find("GET", "/v1/assets/{}/files/{}")[0].obj(t)
	if u, _ := file["downloadUrl"].(string); !strings.HasPrefix(u, env.BaseURL+"/blobs/") {
		t.Errorf("the file's downloadUrl %v, want a signed URL of the service", file["downloadUrl"])
	} else if res, err := http.Get(u); err != nil {
		t.Error(err)
	} else {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || string(b) != "Machine wash cold." {
			t.Errorf("GET downloadUrl: %d %q", res.StatusCode, b)
		}
	}
	deliveries := find("GET", "/v1/webhook-subscriptions/{}/deliveries")[0].obj(t)["items"].([]any)
	if len(deliveries) != 1 || deliveries[0].(map[string]any)["eventType"] != "attribute.created" {
		t.Errorf("deliveries %v, want one attribute.created", deliveries)
	}
	// The delivery's uuid (its webhook-id) is not the event's: the delivery names the event, which the
	// event log lists under that uuid.
	events := find("GET", "/v1/events")[0].obj(t)["items"].([]any)
	if len(events) != 1 || events[0].(map[string]any)["type"] != "attribute.created" ||
		events[0].(map[string]any)["uuid"] == deliveries[0].(map[string]any)["uuid"] ||
		events[0].(map[string]any)["uuid"] != deliveries[0].(map[string]any)["eventUuid"] {
		t.Errorf("the delivery's event in the log: %v, want the attribute.created the delivery %v names", events, deliveries[0])
	}

	// The catalog the tour leaves, read back through the API.
	c := env.ClientFor(t, tenant)
	products := apptest.Want(t, c.Get("/v1/products?code[order]=asc"), 200).Items()
	if len(products) != 2 || products[0]["code"] != "TSHIRT-"+r || products[1]["code"] != "TSHIRT-RED-"+r ||
		products[0]["status"] != "active" || products[1]["status"] != "active" {
		t.Errorf("products after the tour: %v", products)
	}
	variant := uuidOf(t, find("POST", "/v1/products")[1])
	pub := uuidOf(t, find("POST", "/v1/products/{}/publications")[0])
	schedules := apptest.Want(t, c.Get("/v1/products/"+variant+"/publications/"+pub+"/schedules"), 200).Items()
	if len(schedules) != 1 || schedules[0]["status"] != "pending" || schedules[0]["transition"] != "publish" ||
		!apptest.TS(t, schedules[0]["scheduledAt"]).Equal(time.Date(2030, 1, 1, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("schedules after the tour: %v", schedules)
	}
	attrs := apptest.Want(t, c.Get("/v1/attributes?code[order]=asc&size=100"), 200).Items()
	status := map[string]any{}
	for _, a := range attrs {
		status[fmt.Sprint(a["code"])] = a["status"]
	}
	// The list leaves removed attributes out: size is gone.
	if want := map[string]any{"color-" + r: "published", "material-" + r: "draft", "weight-" + r: "draft"}; fmt.Sprint(status) != fmt.Sprint(want) {
		t.Errorf("attributes after the tour: %v, want %v", status, want)
	}
}

func uuidOf(t *testing.T, s step) string {
	t.Helper()
	id, _ := s.obj(t)["uuid"].(string)
	if id == "" {
		t.Fatalf("%s: no uuid in the answer %s", s.line, s.answer)
	}
	return id
}

// TestReadmeShowsTheTour: the README's walk-through is the script's, line for line; and every
// variable it uses is assigned before, by an earlier line of it or, for TOKEN and BASE, by the
// README's set-up lines before it and the script's defaults.
func TestReadmeShowsTheTour(t *testing.T) {
	t.Parallel()
	script, scriptBefore := scriptWalk(t)
	readme, readmeBefore := readmeWalk(t)
	if len(script) == 0 || len(readme) == 0 {
		t.Fatalf("empty walk-through: %d lines in %s, %d in %s", len(script), scriptPath, len(readme), readmePath)
	}
	for i := 0; i < len(script) || i < len(readme); i++ {
		switch {
		case i >= len(readme):
			t.Fatalf("%s:%d and the %d lines after it are not in the README's walk-through (%d lines):\n%s",
				scriptPath, script[i].no, len(script)-i-1, len(readme), script[i].text)
		case i >= len(script):
			t.Fatalf("%s:%d and the %d lines after it are not in the script's walk-through (%d lines):\n%s",
				readmePath, readme[i].no, len(readme)-i-1, len(script), readme[i].text)
		case script[i].text != readme[i].text:
			t.Fatalf("the walk-throughs differ at line %d of each:\n%s:%d: %s\n%s:%d: %s\n(the ```sh blocks of README.md between %q and %q must be %s's lines between %q and %q)",
				i+1, scriptPath, script[i].no, script[i].text, readmePath, readme[i].no, readme[i].text,
				readmeBegin, readmeEnd, scriptPath, scriptBegin, scriptEnd)
		}
	}

	// Variables: assigned before use, within the walk-through or before it.
	assignRE := regexp.MustCompile(`(?:^|[\s;(])([A-Za-z_][A-Za-z0-9_]*)=`)
	useRE := regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`)
	assigned := map[string]bool{}
	external := map[string]int{} // used before any assignment in the walk-through: first line
	for _, l := range script {
		if strings.HasPrefix(strings.TrimSpace(l.text), "#") {
			continue
		}
		type ev struct {
			at     int
			name   string
			assign bool
		}
		var evs []ev
		for _, m := range assignRE.FindAllStringSubmatchIndex(l.text, -1) {
			evs = append(evs, ev{m[2], l.text[m[2]:m[3]], true})
		}
		for _, m := range useRE.FindAllStringSubmatchIndex(l.text, -1) {
			evs = append(evs, ev{m[2], l.text[m[2]:m[3]], false})
		}
		sort.Slice(evs, func(i, j int) bool { return evs[i].at < evs[j].at })
		for _, e := range evs {
			switch {
			case e.assign:
				assigned[e.name] = true
			case !assigned[e.name]:
				if _, seen := external[e.name]; !seen {
					external[e.name] = l.no
				}
			}
		}
	}
	for name, no := range external {
		if name != "TOKEN" && name != "BASE" && name != "RANDOM" { // RANDOM: bash's own
			t.Errorf("%s:%d uses $%s before the walk-through assigns it", scriptPath, no, name)
		}
	}
	for _, name := range []string{"TOKEN", "BASE"} {
		if _, used := external[name]; !used {
			t.Errorf("the walk-through never uses $%s", name)
		}
		if !hasAssignment(readmeBefore, name) {
			t.Errorf("%s sets no %s before its walk-through", readmePath, name)
		}
		if !hasAssignment(scriptBefore, name) {
			t.Errorf("%s sets no %s before its walk-through", scriptPath, name)
		}
	}
	// The README's set-up keeps the development token line of the CLI.
	if !hasLinePrefix(readmeBefore, "TOKEN=$(./bin/catalogd token)") || !hasLinePrefix(readmeBefore, "BASE=localhost:8080") {
		t.Errorf("%s: the walk-through's set-up lacks `TOKEN=$(./bin/catalogd token)` or `BASE=localhost:8080`", readmePath)
	}
	if !hasLinePrefix(scriptBefore, "BASE=${BASE:-localhost:8080}") {
		t.Errorf("%s: BASE's default is not the README's localhost:8080", scriptPath)
	}
}

func hasAssignment(lines []string, name string) bool {
	re := regexp.MustCompile(`(?:^|[\s;(])` + name + `=`)
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

func hasLinePrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return true
		}
	}
	return false
}
