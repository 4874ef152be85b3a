package fgrt

// The names below are the package's API before every learner took the
// spelling Config / DefaultConfig / New. They remain only until the last
// caller outside the learner packages (the partition figures in package
// plots) has moved; new code uses Config, DefaultConfig and New.

// Options is the old name of Config.
//
// Deprecated: use Config.
type Options = Config

// DefaultOptions is the old name of DefaultConfig.
//
// Deprecated: use DefaultConfig.
func DefaultOptions() Config { return DefaultConfig() }

// NewTrainer is the old name of New.
//
// Deprecated: use New.
func NewTrainer(c Config) (*Trainer, error) { return New(c) }
