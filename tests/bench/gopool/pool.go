// pool.go: seed 000's WorkerPool in Go, for the benchmark.
//
// The same semantics as tests/bench/asyncio_pool.py, in Go's idiom: one
// goroutine and one context.WithTimeout per attempt, a bounded channel for
// the queue, N consumer goroutines, a channel of results. Standard library
// only (Go 1.19). Where Go cannot say what asyncio says, the difference is
// written down where it happens:
//   - cancellation is a context, cancelled once: the three cancel rounds of
//     asyncio are three waits of the item timeout, then waiting for as long
//     as the handler takes (a goroutine cannot be stopped from outside);
//   - results go through a channel with room for one result per worker
//     instead of an unbounded queue: a caller that stops reading holds the
//     workers back, which asyncio's pool does not do.
//
// SPDX-License-Identifier: LGPL-2.1-or-later
package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

const maxCancelRounds = 3

// The pool's own errors, by the names the seed gives them.
var (
	ErrTimeout             = errors.New("TimeoutError: item timed out")
	ErrHandlerCancelled    = errors.New("RuntimeError: handler cancelled itself")
	ErrSourceCancelledSelf = errors.New("RuntimeError: source cancelled itself")
)

// Handler handles one item. Its context ends at the item's deadline, or
// when the caller cancels the run.
type Handler[T, R any] func(ctx context.Context, item T) (R, error)

// Source is the async iterator the pool pulls from: the next item, or
// ok == false at its end. Its context ends when the pool stops pulling.
type Source[T any] interface {
	Next(ctx context.Context) (item T, ok bool, err error)
}

// Options are the seed's keyword arguments.
type Options struct {
	Workers     int
	QueueSize   int
	ItemTimeout time.Duration
	Retryable   func(error) bool // nil: nothing is retried
	MaxRetries  int
	Metrics     func(event, subject string) // nil: no metrics
}

// GroupError is the ExceptionGroup a failed run ends with.
type GroupError struct{ Errors []error }

func (g *GroupError) Error() string {
	return fmt.Sprintf("worker pool failed (%d sub-exceptions)", len(g.Errors))
}

// Pool is single-use, like the seed's.
type Pool[T, R any] struct {
	handle   Handler[T, R]
	opt      Options
	mu       sync.Mutex
	used     bool
	errs     []error
	stopped  chan struct{}
	stopOnce sync.Once
}

// NewPool validates the options as the seed does.
func NewPool[T, R any](handle Handler[T, R], opt Options) (*Pool[T, R], error) {
	switch {
	case opt.Workers <= 0:
		return nil, fmt.Errorf("workers must be positive, got %d", opt.Workers)
	case opt.QueueSize <= 0:
		return nil, fmt.Errorf("queue_size must be positive, got %d", opt.QueueSize)
	case opt.ItemTimeout <= 0:
		return nil, fmt.Errorf("item_timeout must be positive, got %v", opt.ItemTimeout)
	case opt.MaxRetries < 0:
		return nil, fmt.Errorf("max_retries must be zero or more, got %d", opt.MaxRetries)
	}
	return &Pool[T, R]{handle: handle, opt: opt, stopped: make(chan struct{})}, nil
}

// RequestStop stops pulling from the source; what was queued is handled.
func (p *Pool[T, R]) RequestStop() { p.stopOnce.Do(func() { close(p.stopped) }) }

func (p *Pool[T, R]) stopping() bool {
	select {
	case <-p.stopped:
		return true
	default:
		return false
	}
}

func (p *Pool[T, R]) record(err error) {
	p.mu.Lock()
	p.errs = append(p.errs, err)
	p.mu.Unlock()
}

// metric calls the metrics callback; what it raises is ignored.
func (p *Pool[T, R]) metric(event string, subject any) {
	if p.opt.Metrics == nil {
		return
	}
	defer func() { _ = recover() }()
	p.opt.Metrics(event, fmt.Sprint(subject))
}

// Run is `pool.run(source)`: read Results until it closes, then Err.
type Run[R any] struct {
	Results <-chan R
	done    chan struct{}
	err     error
}

// Err waits for every goroutine of the run and returns the caller's
// cancellation, the group of recorded errors, or nil.
func (r *Run[R]) Err() error {
	<-r.done
	return r.err
}

// Run starts the driver. Cancelling ctx is the caller's cancellation: every
// attempt is cancelled and waited for before Results closes.
func (p *Pool[T, R]) Run(ctx context.Context, source Source[T]) (*Run[R], error) {
	p.mu.Lock()
	used := p.used
	p.used = true
	p.mu.Unlock()
	if used {
		return nil, errors.New("pool is single-use")
	}
	results := make(chan R, p.opt.Workers)
	run := &Run[R]{Results: results, done: make(chan struct{})}
	go p.drive(ctx, source, results, run)
	return run, nil
}

func (p *Pool[T, R]) drive(ctx context.Context, source Source[T], results chan<- R, run *Run[R]) {
	defer close(run.done)
	queue := make(chan T, p.opt.QueueSize)
	var workers sync.WaitGroup
	workers.Add(p.opt.Workers)
	for i := 0; i < p.opt.Workers; i++ {
		go func() {
			defer workers.Done()
			p.consume(ctx, queue, results)
		}()
	}
	if !p.stopping() {
		p.produce(ctx, source, queue)
	}
	close(queue) // the sentinels: each consumer ends once the queue is empty
	workers.Wait()
	close(results)
	if ctx.Err() != nil {
		run.err = ctx.Err()
	} else if len(p.errs) > 0 {
		run.err = &GroupError{Errors: p.errs}
	}
}

// sourceContext ends when the pool stops, which wakes a producer that
// waits on the source (asyncio cancels the producer task for that).
func (p *Pool[T, R]) sourceContext(ctx context.Context) (context.Context, context.CancelFunc) {
	sctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-p.stopped:
			cancel()
		case <-sctx.Done():
		}
	}()
	return sctx, cancel
}

func (p *Pool[T, R]) produce(ctx context.Context, source Source[T], queue chan<- T) {
	sctx, cancel := p.sourceContext(ctx)
	defer cancel()
	for !p.stopping() {
		item, ok, err := source.Next(sctx)
		if err != nil {
			p.sourceFailed(ctx, err)
			return
		}
		if !ok || p.stopping() {
			return // the end, or pulled after the stop: never handled
		}
		select {
		case queue <- item:
		case <-p.stopped:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (p *Pool[T, R]) sourceFailed(ctx context.Context, err error) {
	canceled := errors.Is(err, context.Canceled)
	if ctx.Err() != nil || (canceled && p.stopping()) {
		return // the caller's cancellation, or the stop's wake-up
	}
	if canceled {
		err = ErrSourceCancelledSelf
	}
	p.record(err)
	p.RequestStop()
}

func (p *Pool[T, R]) consume(ctx context.Context, queue <-chan T, results chan<- R) {
	for {
		select {
		case item, ok := <-queue:
			if !ok || !p.handleItem(ctx, item, results) {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// handleItem retries as the seed says; false when the caller cancelled.
func (p *Pool[T, R]) handleItem(ctx context.Context, item T, results chan<- R) bool {
	for attempts := 1; ; attempts++ {
		result, err := p.attempt(ctx, item)
		if ctx.Err() != nil {
			return false
		}
		if err != nil {
			if p.opt.Retryable != nil && p.opt.Retryable(err) && attempts <= p.opt.MaxRetries {
				p.metric("retry", err)
				continue
			}
			p.metric("failure", err)
			p.record(err)
			p.RequestStop()
			return true
		}
		p.metric("ok", item)
		select {
		case results <- result:
			return true
		case <-ctx.Done():
			return false
		}
	}
}

type outcome[R any] struct {
	result R
	err    error
}

// attempt is one handler call in a goroutine of its own, with its own
// deadline.
func (p *Pool[T, R]) attempt(ctx context.Context, item T) (R, error) {
	actx, cancel := context.WithTimeout(ctx, p.opt.ItemTimeout)
	defer cancel()
	done := make(chan outcome[R], 1)
	go func() {
		result, err := p.handle(actx, item)
		done <- outcome[R]{result, err}
	}()
	var zero R
	select {
	case o := <-done:
		if o.err != nil && actx.Err() == nil && errors.Is(o.err, context.Canceled) {
			return zero, ErrHandlerCancelled
		}
		if o.err != nil && actx.Err() != nil && ctx.Err() == nil {
			return zero, ErrTimeout // it saw its deadline first
		}
		return o.result, o.err
	case <-actx.Done():
		p.stopAttempt(done)
		if ctx.Err() != nil {
			return zero, ctx.Err()
		}
		return zero, ErrTimeout
	}
}

// stopAttempt waits for a handler whose context has ended: three rounds
// of the item timeout, then however long it takes.
func (p *Pool[T, R]) stopAttempt(done <-chan outcome[R]) {
	for round := 0; round < maxCancelRounds; round++ {
		timer := time.NewTimer(p.opt.ItemTimeout)
		select {
		case <-done:
			timer.Stop()
			return
		case <-timer.C:
		}
	}
	<-done
}
