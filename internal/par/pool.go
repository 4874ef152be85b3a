package par

import "sync"

// Pool hands out working buffers to the bodies of a loop spread with For:
// Get returns a free one, making one with fresh only when none is free, and
// Put gives it back. A loop whose bodies each Get and Put one makes as
// many as there are threads at work on it at once (one when it runs
// serially), not one per index. What a body computes must not depend on
// which buffer it got. Safe for concurrent use.
type Pool[T any] struct {
	mu    sync.Mutex
	free  []T
	fresh func() T
}

// NewPool returns an empty pool that makes buffers with fresh.
func NewPool[T any](fresh func() T) *Pool[T] { return &Pool[T]{fresh: fresh} }

// Get returns a free buffer, or a fresh one when none is free.
func (p *Pool[T]) Get() T {
	p.mu.Lock()
	if k := len(p.free); k > 0 {
		v := p.free[k-1]
		p.free = p.free[:k-1]
		p.mu.Unlock()
		return v
	}
	p.mu.Unlock()
	return p.fresh()
}

// Put gives a buffer (back) to the pool.
func (p *Pool[T]) Put(v T) {
	p.mu.Lock()
	p.free = append(p.free, v)
	p.mu.Unlock()
}
