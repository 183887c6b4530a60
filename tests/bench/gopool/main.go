// Command gopool: the benchmark's throughput scenario on the Go pool of
// pool.go, the Go peer of tests/bench/asyncio_pool.py.
//
//	gopool -items 200000    # throughput, one JSON line
//	gopool -items 100000 -workers 100000 -delay 1   # every attempt in flight at once
//	gopool -check           # the seed's example: 4, 1, 0; timeouts; a cancel
//
// The scenario is bench-pool's: an `ok 0` handler (returns at once), 64
// workers, queue 256, item timeout 10 s, N items. scripts/bench builds it
// with `go build` into build-bench when golang-go is installed.
//
// SPDX-License-Identifier: LGPL-2.1-or-later
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"
)

// numbers is the source 0, 1, ..., count-1.
type numbers struct{ next, count int }

func (n *numbers) Next(ctx context.Context) (int, bool, error) {
	if n.next >= n.count {
		return 0, false, nil
	}
	n.next++
	return n.next - 1, true, nil
}

// ok0 is `ok 0`: the item back at once.
func ok0(ctx context.Context, item int) (int, error) { return item, nil }

type report struct {
	Implementation string  `json:"implementation"`
	Go             string  `json:"go"`
	GOMAXPROCS     int     `json:"gomaxprocs"`
	Items          int     `json:"items"`
	Workers        int     `json:"workers"`
	QueueSize      int     `json:"queue_size"`
	ItemTimeout    float64 `json:"item_timeout"`
	Seconds        float64 `json:"seconds"`
	CPUSeconds     float64 `json:"cpu_seconds"`
	ItemsPerS      float64 `json:"items_per_s"`
	USPerItem      float64 `json:"us_per_item"`
	CPUUSPerItem   float64 `json:"cpu_us_per_item"`
	Delay          float64 `json:"delay"`
	Mallocs        uint64  `json:"mallocs"` // heap objects allocated during the run
}

// cpuSeconds is the process's user + system time, all threads.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// okAfter is `ok DELAY`: the item back after delay, or the context's error.
func okAfter(delay time.Duration) func(context.Context, int) (int, error) {
	return func(ctx context.Context, item int) (int, error) {
		if err := sleepOrDone(ctx, delay); err != nil {
			return 0, err
		}
		return item, nil
	}
}

func throughput(items, workers, queueSize int, timeout, delay time.Duration) (report, error) {
	handler := ok0
	if delay > 0 {
		handler = okAfter(delay)
	}
	pool, err := NewPool[int, int](handler, Options{Workers: workers, QueueSize: queueSize, ItemTimeout: timeout})
	if err != nil {
		return report{}, err
	}
	var memBefore, memAfter runtime.MemStats
	runtime.ReadMemStats(&memBefore)
	started, cpuStarted := time.Now(), cpuSeconds()
	run, err := pool.Run(context.Background(), &numbers{count: items})
	if err != nil {
		return report{}, err
	}
	count := 0
	for range run.Results {
		count++
	}
	if err := run.Err(); err != nil {
		return report{}, err
	}
	seconds, cpu := time.Since(started).Seconds(), cpuSeconds()-cpuStarted
	runtime.ReadMemStats(&memAfter)
	if count != items {
		return report{}, fmt.Errorf("%d results of %d items", count, items)
	}
	return report{
		Implementation: "go", Go: runtime.Version(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Items: items, Workers: workers, QueueSize: queueSize, ItemTimeout: timeout.Seconds(),
		Seconds: seconds, CPUSeconds: cpu, ItemsPerS: float64(items) / seconds,
		USPerItem: seconds * 1e6 / float64(items), CPUUSPerItem: cpu * 1e6 / float64(items),
		Delay: delay.Seconds(), Mallocs: memAfter.Mallocs - memBefore.Mallocs,
	}, nil
}

// collect runs the pool to its end: the results in order and Err.
func collect(pool *Pool[int, int], ctx context.Context, count int) ([]int, error) {
	run, err := pool.Run(ctx, &numbers{count: count})
	if err != nil {
		return nil, err
	}
	var got []int
	for r := range run.Results {
		got = append(got, r)
	}
	return got, run.Err()
}

func sleepOrDone(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// checkSeedExample: later numbers finish sooner.
func checkSeedExample() error {
	slowSquare := func(ctx context.Context, n int) (int, error) {
		if err := sleepOrDone(ctx, time.Duration(3-n)*100*time.Millisecond); err != nil {
			return 0, err
		}
		return n * n, nil
	}
	pool, _ := NewPool[int, int](slowSquare, Options{Workers: 3, QueueSize: 3, ItemTimeout: time.Second})
	got, err := collect(pool, context.Background(), 3)
	if err != nil || fmt.Sprint(got) != "[4 1 0]" {
		return fmt.Errorf("seed example: %v, %v", got, err)
	}
	return nil
}

// checkTimeouts: hanging handlers end by their deadline, in a group.
func checkTimeouts() error {
	hang := func(ctx context.Context, n int) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	}
	pool, _ := NewPool[int, int](hang, Options{Workers: 2, QueueSize: 2, ItemTimeout: 50 * time.Millisecond})
	_, err := collect(pool, context.Background(), 2)
	var group *GroupError
	if !errors.As(err, &group) || len(group.Errors) == 0 {
		return fmt.Errorf("timeouts: %v, not a group", err)
	}
	for _, e := range group.Errors {
		if e != ErrTimeout {
			return fmt.Errorf("timeouts: %v in the group", e)
		}
	}
	return nil
}

// checkCancel: the caller's cancellation ends every goroutine of the run.
func checkCancel() error {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	slow := func(ctx context.Context, n int) (int, error) { return n, sleepOrDone(ctx, time.Hour) }
	pool, _ := NewPool[int, int](slow, Options{Workers: 4, QueueSize: 4, ItemTimeout: time.Hour})
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err := collect(pool, ctx, 100)
	if !errors.Is(err, context.Canceled) {
		return fmt.Errorf("cancel: %v", err)
	}
	for i := 0; i < 100 && runtime.NumGoroutine() > before; i++ {
		time.Sleep(time.Millisecond) // the timer's goroutine may still be returning
	}
	if n := runtime.NumGoroutine(); n > before {
		return fmt.Errorf("cancel: %d goroutines left of %d", n, before)
	}
	return nil
}

func check() error {
	for _, f := range []func() error{checkSeedExample, checkTimeouts, checkCancel} {
		if err := f(); err != nil {
			return err
		}
	}
	fmt.Println("ok")
	return nil
}

func main() {
	items := flag.Int("items", 50000, "items")
	workers := flag.Int("workers", 64, "workers")
	queueSize := flag.Int("queue-size", 256, "queue size")
	timeout := flag.Float64("timeout", 10, "item timeout in seconds")
	delay := flag.Float64("delay", 0, "the handler's delay in seconds (ok DELAY; 0: ok 0)")
	checkOnly := flag.Bool("check", false, "run the seed's example and exit")
	flag.Parse()
	if *checkOnly {
		if err := check(); err != nil {
			fmt.Fprintln(os.Stderr, "gopool:", err)
			os.Exit(1)
		}
		return
	}
	r, err := throughput(*items, *workers, *queueSize, time.Duration(*timeout*float64(time.Second)),
		time.Duration(*delay*float64(time.Second)))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gopool:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		os.Exit(1)
	}
}
