// Package measure holds what the bench programs share: a timed closed loop of concurrent clients
// and latency percentiles.
package measure

import (
	"math/rand/v2"
	"slices"
	"sync"
	"time"
)

// Loop runs op on clients goroutines until d has passed and returns the latency of every op that
// succeeded, the number that failed with the first error, and the elapsed time. Each client has
// its own random source.
func Loop(clients int, d time.Duration, op func(*rand.Rand) error) (lat []time.Duration, errs int, firstErr error, elapsed time.Duration) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for w := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), uint64(start.UnixNano())))
			mine := make([]time.Duration, 0, 1<<14)
			bad := 0
			var first error
			for time.Now().Before(deadline) {
				t := time.Now()
				if err := op(r); err != nil {
					bad++
					first = FirstErr(first, err)
					continue
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			lat, errs, firstErr = append(lat, mine...), errs+bad, FirstErr(firstErr, first)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return lat, errs, firstErr, time.Since(start)
}

// FirstErr is a when it is set, else b.
func FirstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Pct returns p50, p99 and the mean of d in milliseconds (d is not modified).
func Pct(d []time.Duration) (p50, p99, mean float64) {
	if len(d) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	var sum time.Duration
	for _, x := range s {
		sum += x
	}
	ms := func(x time.Duration) float64 { return float64(x.Microseconds()) / 1000 }
	return ms(s[len(s)*50/100]), ms(s[min(len(s)-1, len(s)*99/100)]), ms(sum / time.Duration(len(s)))
}

// Percentile returns the p-th percentile (0-100) of d in milliseconds, as Pct picks its own (d is
// not modified; 0 when d is empty).
func Percentile(d []time.Duration, p int) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[min(len(s)-1, len(s)*p/100)].Microseconds()) / 1000
}
