package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/catalogd/catalogd/bench/measure"
)

// The receiver of the throughput scenario runs in a process of its own (this program again, with
// -receiver), so that the CPU of this process is catalogd's (and the little of the load) and the
// receiver's is measured apart. It answers every delivery 204 and keeps, per attribute, when the
// first delivery of it came; /stats and /receipts tell the bench.

// receiverStats is /stats: requests answered, distinct attributes received, and the connections
// the deliveries came on (keep-alive: far fewer than the requests).
type receiverStats struct{ Requests, Distinct, Conns int }

// serveReceiver is the child process: it listens on loopback, prints its address and serves until
// its stdin closes (the bench ended, however it ended).
func serveReceiver() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	var (
		mu       sync.Mutex
		requests int
		first    = map[string]int64{} // attribute uuid -> unix ns of its first receipt
		conns    = map[string]bool{}  // the client addresses of the deliveries
	)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /hook", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		now := time.Now().UnixNano()
		var p struct{ AttributeUuid string }
		_ = json.Unmarshal(body, &p)
		mu.Lock()
		requests++
		conns[r.RemoteAddr] = true
		if _, dup := first[p.AttributeUuid]; !dup {
			first[p.AttributeUuid] = now
		}
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		s := receiverStats{Requests: requests, Distinct: len(first), Conns: len(conns)}
		mu.Unlock()
		_ = json.NewEncoder(w).Encode(s)
	})
	mux.HandleFunc("GET /receipts", func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		_ = json.NewEncoder(w).Encode(first)
	})
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); os.Exit(0) }()
	fmt.Printf("listening %s\n", l.Addr())
	return http.Serve(l, mux)
}

// remoteReceiver is the bench's handle on the receiver process.
type remoteReceiver struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:port
	pid  string
	http *http.Client
}

// startReceiver runs this program again as the receiver.
func startReceiver() (*remoteReceiver, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-receiver")
	cmd.Stderr = os.Stderr
	if _, err := cmd.StdinPipe(); err != nil { // closed when this process exits: the receiver ends
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("receiver process: %q %v", line, err)
	}
	return &remoteReceiver{cmd: cmd, base: "http://" + addr, pid: strconv.Itoa(cmd.Process.Pid), http: &http.Client{}}, nil
}

func (r *remoteReceiver) URL() string { return r.base + "/hook" }

func (r *remoteReceiver) stop() { _ = r.cmd.Process.Kill(); _ = r.cmd.Wait() }

func (r *remoteReceiver) get(path string, out any) error {
	res, err := r.http.Get(r.base + path)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	return json.NewDecoder(res.Body).Decode(out)
}

func (r *remoteReceiver) stats() (receiverStats, error) {
	var s receiverStats
	return s, r.get("/stats", &s)
}

// receipts is every attribute's first receipt.
func (r *remoteReceiver) receipts() (map[string]time.Time, error) {
	var m map[string]int64
	if err := r.get("/receipts", &m); err != nil {
		return nil, err
	}
	out := make(map[string]time.Time, len(m))
	for k, v := range m {
		out[k] = time.Unix(0, v)
	}
	return out, nil
}

// cpu is the receiver process's CPU time so far.
func (r *remoteReceiver) cpu() time.Duration { d, _ := measure.ProcCPU(r.pid); return d }

// waitDistinct polls until the receiver has n distinct attributes (or d passes) and returns when
// the count was first seen at n.
func (r *remoteReceiver) waitDistinct(n int, d time.Duration) error {
	end := time.Now().Add(d)
	for {
		s, err := r.stats()
		if err != nil {
			return err
		}
		if s.Distinct >= n {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("receiver has %d distinct deliveries after %s, want %d", s.Distinct, d, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
