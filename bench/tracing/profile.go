package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/catalogd/catalogd/bench/measure"
	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/tracing"
)

// profile runs catalogd in this process with tracing as sampler says ("off": none; else the
// OTEL_TRACES_SAMPLER value, exported by OTLP/HTTP to endpoint) and writes a CPU profile, and with
// memProfile an allocation profile, of the GET load: -clients clients for -duration after a warm-up of
// a second. The profiles hold the client's work too (same process); the allocation profile counts
// from after the warm-up (it is written as the difference against one taken then: go tool pprof
// -diff_base FILE.base FILE). Sampling every 4 kB of allocations slows the run: take the CPU profile
// without -memprofile.
func profile(sampler, endpoint, cpuProfile, memProfile string) error {
	if memProfile != "" {
		runtime.MemProfileRate = 4096
	}
	if sampler != "off" {
		os.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
		os.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
		os.Setenv("OTEL_TRACES_SAMPLER", sampler)
		_, shutdown, err := tracing.FromEnv(context.Background(), "bench")
		if err != nil {
			return err
		}
		defer shutdown(context.Background()) //nolint:errcheck
	}
	env, err := apptest.Start(func(*app.Config) {})
	if err != nil {
		return err
	}
	defer env.Stop()
	api := &measure.API{Base: env.BaseURL, Token: apptest.Token("bench-tracing")}
	ids := measure.SeedAttributes(api, *items)
	get := func(r *rand.Rand) error { return api.Call("GET", "/v1/attributes/"+ids[r.IntN(len(ids))], nil, nil) }
	measure.Loop(*clients, time.Second, get)
	write := func(name, file string) error {
		f, err := os.Create(file)
		if err != nil {
			return err
		}
		defer f.Close()
		return pprof.Lookup(name).WriteTo(f, 0)
	}
	if memProfile != "" {
		if err := write("allocs", memProfile+".base"); err != nil {
			return err
		}
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	lat, errs, firstErr, elapsed := measure.Loop(*clients, *duration, get)
	pprof.StopCPUProfile()
	if errs > 0 {
		return fmt.Errorf("%d GET errors: %v", errs, firstErr)
	}
	if memProfile != "" {
		if err := write("allocs", memProfile); err != nil {
			return err
		}
	}
	fmt.Printf("tracing %s: %d GETs, %.0f req/s (divide the profiles' totals by the GETs for per-request figures)\n",
		sampler, len(lat), float64(len(lat))/elapsed.Seconds())
	return nil
}
