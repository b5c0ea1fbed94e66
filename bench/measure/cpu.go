package measure

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// CPU is the CPU time (user+system) spent so far by catalogd, by PostgreSQL and by this program.
// Catalogd, PostgreSQL and the load share a small machine, so the time each spends per request
// says who eats it.
type CPU struct{ Server, Postgres, Self time.Duration }

// Procs names the processes SampleCPU reads: catalogd's pid (0: none; a catalogd running in this
// process is part of Self, with the load) and the pid of the postmaster of its PostgreSQL cluster,
// whose own time and its children's (the backends, walwriter, checkpointer...) are Postgres (0:
// every process named postgres on the machine, other clusters included).
type Procs struct{ Server, Postmaster int }

// ProcFlags registers -server-pid and -pg-pid on the default flag set (call it in a package-level
// var, before flag.Parse).
func ProcFlags() *Procs {
	p := &Procs{}
	flag.IntVar(&p.Server, "server-pid", 0, "pid of catalogd, to report the CPU time it spends per request")
	flag.IntVar(&p.Postmaster, "pg-pid", 0, "pid of PostgreSQL's postmaster, to count its cluster's CPU time alone (0: every postgres process)")
	return p
}

// SampleCPU reads CPU from /proc.
func SampleCPU(p Procs) CPU {
	var c CPU
	if p.Server > 0 {
		c.Server, _ = ProcCPU(strconv.Itoa(p.Server))
	}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		d, comm, ppid := procStat(e.Name())
		if comm == "postgres" && (p.Postmaster == 0 || ppid == p.Postmaster || e.Name() == strconv.Itoa(p.Postmaster)) {
			c.Postgres += d
		}
		if p.Postmaster > 0 && e.Name() == strconv.Itoa(p.Postmaster) {
			// The children that exited (a backend closed, an autovacuum worker done) count in
			// the postmaster's cutime and cstime once it reaped them: without those, a child
			// that ends during a run would take the time it spent before it out of the run.
			c.Postgres += reapedCPU(e.Name())
		}
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	c.Self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return c
}

// Sub is the CPU spent between an earlier sample b and c.
func (c CPU) Sub(b CPU) CPU {
	return CPU{c.Server - b.Server, c.Postgres - b.Postgres, c.Self - b.Self}
}

// ProcCPU reads utime+stime and the command name of /proc/<pid>/stat (zero values when the
// process is gone). The kernel counts in clock ticks of 10 ms (USER_HZ 100), so a figure per
// request needs a run of seconds, not of a few requests. (A backend that exits during a run
// takes its time with it, unless SampleCPU knows its postmaster, which counts its reaped
// children's time.)
func ProcCPU(pid string) (time.Duration, string) {
	d, comm, _ := procStat(pid)
	return d, comm
}

// procStat is ProcCPU and the parent's pid.
func procStat(pid string) (time.Duration, string, int) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, "", 0
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return 0, "", 0
	}
	f := strings.Fields(s[end+1:]) // state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
	if len(f) < 13 {
		return 0, "", 0
	}
	ppid, _ := strconv.Atoi(f[1])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond, s[open+1 : end], ppid
}

// reapedCPU is the cutime+cstime of /proc/<pid>/stat: the CPU of the children pid waited for.
func reapedCPU(pid string) time.Duration {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return 0
	}
	f := strings.Fields(s[end+1:]) // ... utime stime cutime cstime
	if len(f) < 15 {
		return 0
	}
	cut, _ := strconv.ParseInt(f[13], 10, 64)
	cst, _ := strconv.ParseInt(f[14], 10, 64)
	return time.Duration(cut+cst) * 10 * time.Millisecond
}

// Run is one timed run of Timed.
type Run struct {
	Ops      int           // operations that succeeded
	Errs     int           // operations that failed
	FirstErr error         // the first of those failures
	Elapsed  time.Duration // the timed part, without the warm-up
	P50, P99 float64       // latency of the successful operations, ms
	P95      float64       // the same, ms
	CPU      CPU           // spent during the timed part
}

// RPS is the successful operations per second.
func (r Run) RPS() float64 { return float64(r.Ops) / r.Elapsed.Seconds() }

// PerOp is d in µs per successful operation (d is usually one of r.CPU's figures).
func (r Run) PerOp(d time.Duration) float64 {
	return float64(d.Microseconds()) / float64(max(1, r.Ops))
}

// Timed runs op on clients goroutines (Loop) for a 1 s warm-up and then for d, and samples the
// CPU of p and of this program around the timed part.
func Timed(clients int, d time.Duration, p Procs, op func(*rand.Rand) error) Run {
	return TimedSettled(clients, d, p, op, nil)
}

// TimedSettled is Timed that runs settle (when not nil) after the timed part and before its last
// CPU sample: the work the run left to the database (a VACUUM of what it wrote, which autovacuum
// would otherwise do during the next run) is charged to the run that made it.
func TimedSettled(clients int, d time.Duration, p Procs, op func(*rand.Rand) error, settle func()) Run {
	Loop(clients, time.Second, op)
	cpu0 := SampleCPU(p)
	lat, errs, firstErr, elapsed := Loop(clients, d, op)
	if settle != nil {
		settle()
	}
	r := Run{Ops: len(lat), Errs: errs, FirstErr: firstErr, Elapsed: elapsed, CPU: SampleCPU(p).Sub(cpu0)}
	r.P50, r.P99, _ = Pct(lat)
	r.P95 = Percentile(lat, 95)
	return r
}

// StatusKB reads a kB field of /proc/<pid>/status (VmRSS, VmHWM: resident memory now and at its
// peak); 0 and no error when pid is not positive.
func StatusKB(pid int, key string) (int64, error) {
	if pid <= 0 {
		return 0, nil
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", key, pid)
}

// PostmasterPID is the pid of the PostgreSQL server of pool's database (the parent of a backend),
// so that measure.SampleCPU counts that cluster alone, not other clusters on the machine.
func PostmasterPID(pool *pgxpool.Pool) (int, error) {
	var backend int
	if err := pool.QueryRow(context.Background(), `SELECT pg_backend_pid()`).Scan(&backend); err != nil {
		return 0, err
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(backend) + "/stat")
	if err != nil {
		return 0, nil // not on this machine: SampleCPU then counts every postgres process
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // state ppid ...
	if len(f) < 2 {
		return 0, nil
	}
	return strconv.Atoi(f[1])
}

// LoadAverage is the machine's 1-minute load average (/proc/loadavg), what else competed for the CPU.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}
