package learn

import "github.com/fgrtbench/fgrtbench/internal/par"

// Threaded is implemented by trainers that can spread one fit over the
// free threads of a CPU budget (package par). WithThreads returns a trainer
// with the receiver's settings, every interface the receiver implements,
// and the budget; the budget is not a setting: it changes neither the
// configuration string nor any model, prediction or score, which must be
// byte-identical for every budget, nil included (serial).
type Threaded interface {
	WithThreads(b *par.Budget) Trainer
}

// WithThreads gives t the budget b when t is Threaded, and returns t
// unchanged otherwise or when b is nil.
func WithThreads(t Trainer, b *par.Budget) Trainer {
	if b == nil {
		return t
	}
	if th, ok := t.(Threaded); ok {
		return th.WithThreads(b)
	}
	return t
}
