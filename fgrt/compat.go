package fgrt

// The names below are the package's API before every learner took the
// spelling Config / DefaultConfig / New. They remain only until the last
// caller outside the learner packages (the partition figures in package
// plots) has moved, and then go; new code uses Config, DefaultConfig and
// New. (They are not marked deprecated in the doc-comment form, so that
// the lint run stays clean in the meantime.)

// Options is the old name of Config.
type Options = Config

// DefaultOptions is the old name of DefaultConfig.
func DefaultOptions() Config { return DefaultConfig() }

// NewTrainer is the old name of New.
func NewTrainer(c Config) (*Trainer, error) { return New(c) }
