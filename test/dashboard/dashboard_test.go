// Package dashboard checks the Grafana dashboard of deploy/grafana against the metrics a running
// catalogd exposes on /metrics: every metric a panel queries exists, and every catalogd_* metric is on
// the dashboard.
package dashboard

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

var env *Env

func TestMain(m *testing.M) { Main(m, &env, nil) }

type panel struct {
	ID         int    `json:"id"`
	Type       string `json:"type"`
	Title      string `json:"title"`
	Datasource *struct {
		Type string `json:"type"`
		UID  string `json:"uid"`
	} `json:"datasource"`
	GridPos *struct{ H, W, X, Y int } `json:"gridPos"`
	Targets []struct {
		Expr  string `json:"expr"`
		RefID string `json:"refId"`
	} `json:"targets"`
}

// families are the metric families the /metrics of e exposes, with their types (# TYPE lines).
func families(t *testing.T, e *Env) map[string]string {
	t.Helper()
	// A request first, so that the per-method families have a series.
	c := e.Client(t)
	Want(t, c.Get("/v1/locales"), 200)
	res, err := http.Get(e.BaseURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 4 && f[0] == "#" && f[1] == "TYPE" {
			out[f[2]] = f[3]
		}
	}
	if len(out) == 0 {
		t.Fatalf("no metric family on /metrics:\n%s", b)
	}
	return out
}

var metricName = regexp.MustCompile(`\b(catalogd_[a-z0-9_]+|go_[a-z0-9_]+|process_[a-z0-9_]+)\b`)

func TestDashboardQueriesTheMetricsCatalogdExposes(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "deploy", "grafana", "catalogd-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		UID    string  `json:"uid"`
		Title  string  `json:"title"`
		Panels []panel `json:"panels"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("deploy/grafana/catalogd-dashboard.json: %v", err)
	}
	if dash.UID == "" || dash.Title == "" || len(dash.Panels) == 0 {
		t.Fatalf("dashboard uid %q, title %q, %d panels", dash.UID, dash.Title, len(dash.Panels))
	}
	exposed := families(t, env)
	// The read replicas' families have series only where DATABASE_READ_URL is set: a catalogd with
	// a streaming standby of the test server for its reads exposes them too.
	sb, err := Standby()
	if err != nil {
		t.Fatal(err)
	}
	withReplica, err := Start(ReadsOn(sb))
	if err != nil {
		t.Fatal(err)
	}
	defer withReplica.Stop()
	for f, typ := range families(t, withReplica) {
		exposed[f] = typ
	}
	for _, f := range []string{"catalogd_db_reads_total", "catalogd_db_replica_lag_seconds", "catalogd_db_replica_up", "catalogd_db_replica_paused"} {
		if _, ok := exposed[f]; !ok {
			t.Errorf("a catalogd with a read replica does not expose %s", f)
		}
	}
	onDashboard := map[string]bool{}
	ids := map[int]bool{}
	for _, p := range dash.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d twice", p.ID)
		}
		ids[p.ID] = true
		if p.GridPos == nil || p.GridPos.W == 0 || p.GridPos.H == 0 {
			t.Errorf("panel %q has no position", p.Title)
		}
		if p.Type == "row" {
			continue
		}
		if p.Datasource == nil || p.Datasource.Type != "prometheus" || len(p.Targets) == 0 {
			t.Errorf("panel %q: want a Prometheus datasource and at least one query", p.Title)
			continue
		}
		for _, q := range p.Targets {
			names := metricName.FindAllString(q.Expr, -1)
			if len(names) == 0 {
				t.Errorf("panel %q: query %q names no metric", p.Title, q.Expr)
			}
			for _, n := range names {
				family := n
				for _, suffix := range []string{"_bucket", "_sum", "_count"} {
					if base, ok := strings.CutSuffix(n, suffix); ok && (exposed[base] == "histogram" || exposed[base] == "summary") {
						family = base
					}
				}
				if _, ok := exposed[family]; !ok {
					t.Errorf("panel %q queries %s, which /metrics does not expose", p.Title, n)
				}
				if family != n && exposed[family] == "histogram" && !strings.HasSuffix(n, "_bucket") {
					continue
				}
				onDashboard[family] = true
			}
		}
	}
	var missing []string
	for f := range exposed {
		if strings.HasPrefix(f, "catalogd_") && !onDashboard[f] {
			missing = append(missing, f)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("catalogd metrics not on the dashboard: %v", missing)
	}
}
