// Package deploy validates the deployment files offline: compose.yaml is loaded and validated as
// `docker compose config` does (compose-go: the Compose specification's schema, interpolation,
// references), and the Kubernetes manifests under deploy/kubernetes are decoded strictly into the
// Kubernetes API's own types (k8s.io/api: an unknown or misspelt field, or a value of the wrong type,
// fails), then checked for what docs/operations.md promises: probes on /healthz and /readyz, a grace
// period longer than CATALOG_SHUTDOWN_GRACE, resources, a non-root read-only container, the migration
// Job, the Service and the PodDisruptionBudget selecting the Deployment's pods, config from the Secret.
package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// strict decodes one YAML document into v, refusing fields v's type does not have.
func strict(t *testing.T, what string, doc []byte, v any) {
	t.Helper()
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: not a valid %T: %v", what, v, err)
	}
}

type manifests struct {
	deployment *appsv1.Deployment
	job        *batchv1.Job
	service    *corev1.Service
	pdb        *policyv1.PodDisruptionBudget
	config     *corev1.ConfigMap
	secret     *corev1.Secret
	account    *corev1.ServiceAccount
}

// load reads every file kustomization.yaml lists, each decoded strictly by its kind.
func load(t *testing.T) manifests {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "deploy", "kubernetes")
	var kust struct {
		APIVersion string   `json:"apiVersion"`
		Kind       string   `json:"kind"`
		Labels     []any    `json:"labels"`
		Resources  []string `json:"resources"`
		Images     []struct {
			Name, NewName, NewTag string
		} `json:"images"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	strict(t, "kustomization.yaml", raw, &kust)
	if kust.Kind != "Kustomization" || len(kust.Resources) == 0 {
		t.Fatalf("kustomization.yaml: kind %q, %d resources", kust.Kind, len(kust.Resources))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	for _, f := range files {
		if b := filepath.Base(f); b != "kustomization.yaml" && !slices.Contains(kust.Resources, b) {
			t.Errorf("deploy/kubernetes/%s is not in kustomization.yaml's resources", b)
		}
	}
	var m manifests
	for _, name := range kust.Resources {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range bytes.Split(b, []byte("\n---")) {
			what := name + " document " + string(rune('1'+i))
			var head struct{ APIVersion, Kind string }
			if err := yaml.Unmarshal(doc, &head); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			var v any
			switch head.APIVersion + " " + head.Kind {
			case "apps/v1 Deployment":
				m.deployment = &appsv1.Deployment{}
				v = m.deployment
			case "batch/v1 Job":
				m.job = &batchv1.Job{}
				v = m.job
			case "v1 Service":
				m.service = &corev1.Service{}
				v = m.service
			case "policy/v1 PodDisruptionBudget":
				m.pdb = &policyv1.PodDisruptionBudget{}
				v = m.pdb
			case "v1 ConfigMap":
				m.config = &corev1.ConfigMap{}
				v = m.config
			case "v1 Secret":
				m.secret = &corev1.Secret{}
				v = m.secret
			case "v1 ServiceAccount":
				m.account = &corev1.ServiceAccount{}
				v = m.account
			default:
				t.Fatalf("%s: unexpected %s %s", what, head.APIVersion, head.Kind)
			}
			strict(t, what, doc, v)
		}
	}
	if m.deployment == nil || m.job == nil || m.service == nil || m.pdb == nil || m.config == nil || m.secret == nil || m.account == nil {
		t.Fatalf("deploy/kubernetes lacks a Deployment, Job, Service, PodDisruptionBudget, ConfigMap, Secret or ServiceAccount")
	}
	return m
}

func TestKubernetesManifests(t *testing.T) {
	m := load(t)
	d := m.deployment
	pod := d.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("the Deployment's pod has %d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	if ports["http"] != 8080 || ports["grpc"] != 9090 {
		t.Errorf("container ports %v, want http 8080 and grpc 9090 (CATALOG_HTTP_ADDR, CATALOG_GRPC_ADDR)", ports)
	}
	probe := func(name string, p *corev1.Probe, path string) {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != path || p.HTTPGet.Port.String() != "http" {
			t.Errorf("%s probe %+v, want an HTTP GET of %s on port http", name, p, path)
		}
	}
	probe("liveness", c.LivenessProbe, "/healthz")
	probe("readiness", c.ReadinessProbe, "/readyz")
	probe("startup", c.StartupProbe, "/healthz")

	// The grace period covers the preStop pause, CATALOG_SHUTDOWN_GRACE and the 10 s the rest of the
	// shutdown may take (cmd/catalogd: max(grace, 10s) + 10s).
	grace, err := time.ParseDuration(m.config.Data["CATALOG_SHUTDOWN_GRACE"])
	if err != nil {
		t.Fatalf("CATALOG_SHUTDOWN_GRACE in the ConfigMap: %v", err)
	}
	var pause time.Duration
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
		pause = time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
	}
	need := pause + max(grace, 10*time.Second) + 10*time.Second
	if pod.TerminationGracePeriodSeconds == nil {
		t.Error("no terminationGracePeriodSeconds")
	} else if got := time.Duration(*pod.TerminationGracePeriodSeconds) * time.Second; got <= need {
		t.Errorf("terminationGracePeriodSeconds %s, want more than %s (preStop %s + CATALOG_SHUTDOWN_GRACE %s + 10 s)", got, need, pause, grace)
	}

	for _, x := range []struct {
		what string
		pod  corev1.PodSpec
	}{{"Deployment", pod}, {"migration Job", m.job.Spec.Template.Spec}} {
		checkPod(t, x.what, x.pod, m)
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Errorf("resources %+v: want CPU and memory requests and a memory limit", c.Resources)
	}
	if d.Spec.Strategy.RollingUpdate == nil || d.Spec.Strategy.RollingUpdate.MaxUnavailable == nil ||
		d.Spec.Strategy.RollingUpdate.MaxUnavailable.IntValue() != 0 {
		t.Errorf("rolling update %+v: want maxUnavailable 0", d.Spec.Strategy.RollingUpdate)
	}

	// The migration Job runs `catalogd migrate` once, never restarted in place.
	jc := m.job.Spec.Template.Spec.Containers
	if len(jc) != 1 || !slices.Equal(jc[0].Args, []string{"migrate"}) || jc[0].Image != c.Image {
		t.Errorf("migration Job containers %+v: want one running the Deployment's image with args [migrate]", jc)
	}
	if m.job.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever && m.job.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyOnFailure {
		t.Errorf("migration Job restartPolicy %q", m.job.Spec.Template.Spec.RestartPolicy)
	}

	// The Service and the PodDisruptionBudget select the Deployment's pods, and only them.
	labels := d.Spec.Template.Labels
	if !selects(d.Spec.Selector.MatchLabels, labels) {
		t.Errorf("the Deployment's selector %v does not select its pods %v", d.Spec.Selector.MatchLabels, labels)
	}
	if !selects(m.service.Spec.Selector, labels) || selects(m.service.Spec.Selector, m.job.Spec.Template.Labels) {
		t.Errorf("the Service's selector %v: want the Deployment's pods %v, not the Job's %v", m.service.Spec.Selector, labels, m.job.Spec.Template.Labels)
	}
	for _, p := range m.service.Spec.Ports {
		if _, ok := ports[p.TargetPort.String()]; !ok {
			t.Errorf("Service port %s targets %q, which the container does not name", p.Name, p.TargetPort.String())
		}
	}
	if m.pdb.Spec.Selector == nil || !selects(m.pdb.Spec.Selector.MatchLabels, labels) || selects(m.pdb.Spec.Selector.MatchLabels, m.job.Spec.Template.Labels) {
		t.Errorf("the PodDisruptionBudget's selector does not select exactly the Deployment's pods")
	}
	if m.pdb.Spec.MaxUnavailable == nil && m.pdb.Spec.MinAvailable == nil {
		t.Error("the PodDisruptionBudget has neither maxUnavailable nor minAvailable")
	}

	// catalogd refuses a direct URL unless the pooler is in transaction mode (cmd/catalogd).
	if _, direct := m.secret.StringData["CATALOG_DATABASE_DIRECT_URL"]; direct && m.config.Data["CATALOG_DATABASE_POOLER"] != "transaction" {
		t.Errorf("the Secret has CATALOG_DATABASE_DIRECT_URL but CATALOG_DATABASE_POOLER is %q: catalogd starts only with transaction",
			m.config.Data["CATALOG_DATABASE_POOLER"])
	}

	// The secrets are in the Secret, not the ConfigMap.
	for _, k := range []string{"DATABASE_URL", "CATALOG_DATABASE_DIRECT_URL", "DATABASE_READ_URL", "CATALOG_JWKS_URL", "CATALOG_SECRET_KEY", "AWS_SECRET_ACCESS_KEY"} {
		if _, ok := m.secret.StringData[k]; !ok {
			t.Errorf("the Secret has no %s", k)
		}
		if _, ok := m.config.Data[k]; ok {
			t.Errorf("%s is in the ConfigMap: it belongs in the Secret", k)
		}
	}
}

// checkPod checks what the Deployment's pod and the Job's share: non-root, read-only, the config from
// the ConfigMap and the Secret of the manifests, writable /data and /tmp, the service account.
func checkPod(t *testing.T, what string, pod corev1.PodSpec, m manifests) {
	t.Helper()
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot ||
		pod.SecurityContext.RunAsUser == nil || *pod.SecurityContext.RunAsUser == 0 {
		t.Errorf("%s: pod securityContext %+v, want runAsNonRoot and a non-zero runAsUser", what, pod.SecurityContext)
	}
	if pod.ServiceAccountName != m.account.Name {
		t.Errorf("%s: service account %q, want %q", what, pod.ServiceAccountName, m.account.Name)
	}
	c := pod.Containers[0]
	sc := c.SecurityContext
	if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem || sc.AllowPrivilegeEscalation == nil ||
		*sc.AllowPrivilegeEscalation || sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
		t.Errorf("%s: container securityContext %+v, want a read-only root, no privilege escalation, every capability dropped", what, sc)
	}
	var fromConfig, fromSecret bool
	for _, e := range c.EnvFrom {
		fromConfig = fromConfig || (e.ConfigMapRef != nil && e.ConfigMapRef.Name == m.config.Name)
		fromSecret = fromSecret || (e.SecretRef != nil && e.SecretRef.Name == m.secret.Name)
	}
	if !fromConfig || !fromSecret {
		t.Errorf("%s: envFrom %+v, want the ConfigMap %s and the Secret %s", what, c.EnvFrom, m.config.Name, m.secret.Name)
	}
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			if _, ok := m.secret.StringData[e.ValueFrom.SecretKeyRef.Key]; !ok || e.ValueFrom.SecretKeyRef.Name != m.secret.Name {
				t.Errorf("%s: %s from a key the Secret lacks: %+v", what, e.Name, e.ValueFrom.SecretKeyRef)
			}
		}
	}
	volumes := map[string]bool{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = true
	}
	mounts := map[string]bool{}
	for _, vm := range c.VolumeMounts {
		if !volumes[vm.Name] {
			t.Errorf("%s: mount of an undeclared volume %q", what, vm.Name)
		}
		mounts[vm.MountPath] = true
	}
	if dataDir := m.config.Data["CATALOG_DATA_DIR"]; !mounts[dataDir] || !mounts["/tmp"] {
		t.Errorf("%s: mounts %v, want CATALOG_DATA_DIR (%s) and /tmp writable", what, mounts, dataDir)
	}
}

// selects reports whether a selector's labels all hold in labels.
func selects(selector, labels map[string]string) bool {
	if len(selector) == 0 {
		return false
	}
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// compose.yaml loads and validates as `docker compose config` does, and runs what production runs:
// PostgreSQL, the S3 store, an OpenTelemetry collector, the migrations once, then catalogd wired to
// each of them.
func TestComposeFile(t *testing.T) {
	root := repoRoot(t)
	opts, err := cli.NewProjectOptions([]string{filepath.Join(root, "compose.yaml")}, cli.WithWorkingDirectory(root),
		cli.WithEnv([]string{}), cli.WithInterpolation(true), cli.WithConsistency(true), cli.WithResolvedPaths(true))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	want := []string{"catalogd", "migrate", "otel-collector", "postgres", "s3", "s3-bucket"}
	if got := p.ServiceNames(); !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Fatalf("services %v, want %v", got, want)
	}
	svc := func(name string) types.ServiceConfig { s, _ := p.GetService(name); return s }
	cat, mig := svc("catalogd"), svc("migrate")
	env := func(s types.ServiceConfig, k string) string {
		if v := s.Environment[k]; v != nil {
			return *v
		}
		return ""
	}
	for k, want := range map[string]string{
		"DATABASE_URL":                "@postgres:5432/",
		"CATALOG_BLOB_URL":            "endpoint=http://s3:7070",
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel-collector:4318",
		"CATALOG_HTTP_ADDR":           "0.0.0.0:8080",
		"CATALOG_SECRET_KEY":          "=",
	} {
		if got := env(cat, k); !strings.Contains(got, want) {
			t.Errorf("catalogd's %s = %q, want it to contain %q", k, got, want)
		}
		if env(mig, k) != env(cat, k) {
			t.Errorf("migrate's %s differs from catalogd's", k)
		}
	}
	if !slices.Equal(mig.Command, types.ShellCommand{"migrate"}) || mig.Image != cat.Image {
		t.Errorf("migrate runs %v of %s, want [migrate] of catalogd's image %s", mig.Command, mig.Image, cat.Image)
	}
	for dep, cond := range map[string]string{"migrate": "service_completed_successfully", "s3-bucket": "service_completed_successfully",
		"otel-collector": "service_started"} {
		if d, ok := cat.DependsOn[dep]; !ok || d.Condition != cond {
			t.Errorf("catalogd depends on %s with %+v, want condition %s", dep, d, cond)
		}
	}
	if d := mig.DependsOn["postgres"]; d.Condition != "service_healthy" || svc("postgres").HealthCheck == nil {
		t.Errorf("migrate waits for postgres with %+v; want service_healthy with a healthcheck", d)
	}
	grace, _ := time.ParseDuration(env(cat, "CATALOG_SHUTDOWN_GRACE"))
	if cat.StopGracePeriod == nil || time.Duration(*cat.StopGracePeriod) <= max(grace, 10*time.Second)+10*time.Second {
		t.Errorf("catalogd's stop_grace_period %v: want more than CATALOG_SHUTDOWN_GRACE (%s) + 10 s", cat.StopGracePeriod, grace)
	}
	if !cat.ReadOnly || cat.User == "" || strings.HasPrefix(cat.User, "0") {
		t.Errorf("catalogd: read_only %v, user %q; want a read-only non-root container", cat.ReadOnly, cat.User)
	}
	// The collector's configuration is the file beside the compose file.
	col := svc("otel-collector")
	if len(col.Volumes) != 1 {
		t.Fatalf("otel-collector volumes %+v", col.Volumes)
	}
	if _, err := os.Stat(col.Volumes[0].Source); err != nil {
		t.Errorf("the collector's configuration: %v", err)
	}
}
