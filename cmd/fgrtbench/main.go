// Command fgrtbench reproduces, sweeps and checks the experiments of the
// paper "A Fast Interpretable Fuzzy Tree Learner". Run 'fgrtbench help'.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/fgrtbench/fgrtbench/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env := &cli.Env{
		Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
		StderrIsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
	}
	os.Exit(cli.Main(ctx, env, os.Args[1:]))
}
