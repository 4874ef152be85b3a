package par

import (
	"sync/atomic"
	"testing"
)

// TestPoolMakesOneBufferPerThreadAtWork checks that a loop whose bodies
// Get and Put a buffer makes no more buffers than threads took part (one
// when serial), and that no two bodies hold the same buffer at once.
func TestPoolMakesOneBufferPerThreadAtWork(t *testing.T) {
	for _, tc := range []struct {
		budget *Budget
		most   int64
	}{{nil, 1}, {NewBudget(1), 1}, {NewBudget(3), 3}} {
		var made atomic.Int64
		p := NewPool(func() *atomic.Int32 { made.Add(1); return new(atomic.Int32) })
		var shared atomic.Int64
		tc.budget.Do(func() {
			tc.budget.For(200, func(i int) {
				buf := p.Get()
				if buf.Add(1) != 1 {
					shared.Add(1)
				}
				for k := 0; k < 1000; k++ { // hold it a while
					_ = k * i
				}
				buf.Add(-1)
				p.Put(buf)
			})
		})
		if n := made.Load(); n < 1 || n > tc.most {
			t.Errorf("%d threads: made %d buffers, want 1..%d", tc.budget.Threads(), n, tc.most)
		}
		if shared.Load() != 0 {
			t.Errorf("%d threads: a buffer was handed to two bodies at once", tc.budget.Threads())
		}
	}
}
