package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

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
