package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// postmasterPID is the pid of the PostgreSQL server of pool's database (the parent of a backend),
// so that measure.SampleCPU counts that cluster alone, not other clusters on the machine.
func postmasterPID(pool *pgxpool.Pool) (int, error) {
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

// machineBusy is the CPU time every process of the machine has spent so far (/proc/stat: all
// but idle and iowait), to tell how much of it went to others than catalogd, PostgreSQL and the
// receiver during a run: other work on a shared machine makes the figures noisy.
func machineBusy() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	var busy int64
	for i, v := range f[1:] {
		n, _ := strconv.ParseInt(v, 10, 64)
		if i != 3 && i != 4 && i < 8 { // user nice system (idle iowait) irq softirq steal; guest is in user
			busy += n
		}
	}
	return time.Duration(busy) * 10 * time.Millisecond // USER_HZ 100
}
