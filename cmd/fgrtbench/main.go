// Command fgrtbench reproduces, sweeps and checks the experiments of the
// paper "A Fast Interpretable Fuzzy Tree Learner". Run 'fgrtbench help'.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/fgrtbench/fgrtbench/cmd/fgrtbench/cli"
	"github.com/fgrtbench/fgrtbench/internal/command"
)

func main() {
	args := os.Args[1:]
	ctx, stop := signalContext(os.Stderr, os.Exit, func() string { return cli.SecondSignal(args) })
	defer stop()
	env := &command.Env{
		Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
		StderrIsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
	}
	os.Exit(cli.Main(ctx, env, args))
}

// signalContext returns a context cancelled by the first SIGINT or SIGTERM:
// the run stops after finishing what it can and says what it kept. A second
// signal exits at once through exit (status 130 for SIGINT, 143 for
// SIGTERM), for a run that something (an adapter ignoring its own signal, a
// slow file system) keeps from stopping; results.csv then holds whole units
// only, or a torn last one that resume drops, so the same command resumes.
// note says what the exit leaves, in the command's own words (it may wait
// for a write that must not be cut: cli.SecondSignal).
func signalContext(stderr io.Writer, exit func(int), note func() string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-quit:
			return
		}
		select {
		case sig := <-sigs:
			fmt.Fprintf(stderr, "fgrtbench: second %v: %s\n", sig, note())
			code := 130
			if sig == syscall.SIGTERM {
				code = 143
			}
			exit(code)
		case <-quit:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(quit)
		cancel()
	}
}
