// Command hardening measures the front door of a running catalogd (docs/design.md "Front door:
// limits and rate limits"):
//
//  1. an anonymous 1 MiB POST against an anonymous empty one (p50/p99 over -n each, and the
//     server's CPU time per request when -pid is given): both are 401 before the body is read;
//
//  2. one tenant flooding (-flood-clients clients aiming at -flood-factor × -rps) while another
//     tenant makes steady GETs (-steady-rps): the flooder's answers by status (429s) and the other
//     tenant's p50/p99, against the same GETs with the service idle.
//
//     go run ./bench/hardening -url http://127.0.0.1:8080 -secret "$CATALOG_JWT_HS256_SECRET" [-pid $PID]
//
// The service must run with its rate limit on (CATALOG_RATE_LIMIT_RPS, default 200); -rps says
// which, to aim the flood.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/catalogd/catalogd/bench/measure"
)

var (
	base         = flag.String("url", "http://127.0.0.1:8080", "REST base URL of catalogd")
	tokens       = measure.TokenFlags("catalogd-dev")
	n            = flag.Int("n", 200, "requests of each kind in the anonymous-body measure")
	pid          = flag.Int("pid", 0, "the server's process id: report its CPU time per request (Linux /proc)")
	rps          = flag.Float64("rps", 200, "the server's CATALOG_RATE_LIMIT_RPS")
	floodFactor  = flag.Float64("flood-factor", 10, "the flooding tenant aims at this many times -rps")
	floodClients = flag.Int("flood-clients", 64, "concurrent clients of the flooding tenant")
	steadyRPS    = flag.Float64("steady-rps", 20, "GETs per second of the other tenant")
	duration     = flag.Duration("duration", 10*time.Second, "length of the idle and of the flood phase")
)

func main() {
	flag.Parse()
	if err := tokens.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "hardening:", err)
		os.Exit(2)
	}
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	fmt.Printf("Front door (bench/hardening against %s)\n", *base)
	anonymousBody()
	flood(token("flood-"+run), token("steady-"+run))
}

func token(tenant string) string {
	t, err := tokens.Mint(tenant, "bench", []string{"catalog:read", "catalog:write"}, time.Hour)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hardening:", err)
		os.Exit(1)
	}
	return "Bearer " + t
}

var client = &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}

// do sends one request and returns its status and latency (status 0: a transport error).
func do(method, path, authz string, body []byte) (int, time.Duration) {
	var rdr io.Reader
	if body != nil {
		rdr = bytes.NewReader(body)
	}
	req, _ := http.NewRequest(method, *base+path, rdr)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, time.Since(start)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, time.Since(start)
}

func anonymousBody() {
	big := append([]byte(`{"code":"`), bytes.Repeat([]byte("x"), 1<<20-12)...)
	big = append(big, `"}`...)
	fmt.Printf("\n1. Anonymous POST /v1/attributes, %d sequential requests each\n", *n)
	fmt.Printf("   %-22s %8s %10s %10s %14s\n", "body", "statuses", "p50", "p99", "server CPU/req")
	for _, c := range []struct {
		name string
		body []byte
	}{{"empty", []byte{}}, {fmt.Sprintf("%d bytes", len(big)), big}} {
		cpu0 := cpuTime()
		var lat []time.Duration
		codes := map[int]int{}
		for i := 0; i < *n; i++ {
			st, d := do("POST", "/v1/attributes", "", c.body)
			codes[st]++
			lat = append(lat, d)
		}
		cpu := "-"
		if *pid > 0 {
			cpu = fmt.Sprintf("%.3f ms", float64((cpuTime()-cpu0).Microseconds())/1000/float64(*n))
		}
		fmt.Printf("   %-22s %8s %10s %10s %14s\n", c.name, statuses(codes), pct(lat, 50), pct(lat, 99), cpu)
	}
}

// cpuTime is the server's user+system CPU time so far (0 without -pid).
func cpuTime() time.Duration {
	if *pid <= 0 {
		return 0
	}
	d, _ := measure.ProcCPU(strconv.Itoa(*pid))
	return d
}

// steady makes GETs of tenant tok at rate until stop, returning their latencies and statuses.
func steady(tok string, rate float64, stop <-chan struct{}) ([]time.Duration, map[int]int) {
	var lat []time.Duration
	codes := map[int]int{}
	t := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer t.Stop()
	for {
		select {
		case <-stop:
			return lat, codes
		case <-t.C:
			st, d := do("GET", "/v1/attributes?size=20", tok, nil)
			codes[st]++
			lat = append(lat, d)
		}
	}
}

func flood(floodTok, steadyTok string) {
	// A few attributes for the steady tenant's list, and its idle figures.
	for i := 0; i < 20; i++ {
		do("POST", "/v1/attributes", steadyTok, []byte(fmt.Sprintf(`{"code":"a%d"}`, i)))
	}
	time.Sleep(2 * time.Second) // its bucket refills
	stop := make(chan struct{})
	time.AfterFunc(*duration, func() { close(stop) })
	idle, idleCodes := steady(steadyTok, *steadyRPS, stop)

	target := *rps * *floodFactor
	fmt.Printf("\n2. Tenant A floods GET /v1/attributes (%d clients aiming at %.0f/s = %.0f× its rate) for %s;\n"+
		"   tenant B makes %.0f GET/s throughout (and alone before, for %s)\n", *floodClients, target, *floodFactor, *duration,
		*steadyRPS, *duration)
	stop = make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	floodCodes := map[int]int{}
	var sent atomic.Int64
	interval := time.Duration(float64(time.Second) * float64(*floodClients) / target)
	for c := 0; c < *floodClients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := map[int]int{}
			next := time.Now()
			for {
				select {
				case <-stop:
					mu.Lock()
					for k, v := range local {
						floodCodes[k] += v
					}
					mu.Unlock()
					return
				default:
				}
				if d := time.Until(next); d > 0 {
					time.Sleep(d)
				}
				next = next.Add(interval)
				st, _ := do("GET", "/v1/attributes", floodTok, nil)
				local[st]++
				sent.Add(1)
			}
		}()
	}
	time.AfterFunc(*duration, func() { close(stop) })
	busy, busyCodes := steady(steadyTok, *steadyRPS, stop)
	wg.Wait()
	fmt.Printf("   A: %d requests (%.0f/s): %s\n", sent.Load(), float64(sent.Load())/duration.Seconds(), statuses(floodCodes))
	fmt.Printf("   B idle:     %4d GETs %-12s p50 %8s  p99 %8s\n", len(idle), statuses(idleCodes), pct(idle, 50), pct(idle, 99))
	fmt.Printf("   B flooded:  %4d GETs %-12s p50 %8s  p99 %8s  (p99 %.2f× idle)\n", len(busy), statuses(busyCodes),
		pct(busy, 50), pct(busy, 99), float64(q(busy, 99))/float64(max(1, q(idle, 99))))
}

func statuses(m map[int]int) string {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%d×%d", m[k], k))
	}
	return strings.Join(parts, " ")
}

func q(l []time.Duration, p int) time.Duration {
	if len(l) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), l...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, len(s)*p/100)]
}

func pct(l []time.Duration, p int) string {
	d := q(l, p)
	return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000)
}
