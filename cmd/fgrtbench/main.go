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

// minAddressSpaceKiB is the least virtual memory (ulimit -v, in KiB)
// fgrtbench runs under (docs/large-data.md#virtual-memory). The Go runtime
// reserves 1 GiB of address space when it starts (two 512 MiB tables, the
// page summaries and the scavenger's index); under limits from about
// 1,160,000 to 1,300,000 KiB both fit and the runtime dies at its first
// heap allocation, and under lower ones the second is silently left
// unreserved (the runtime then maps its pages at fixed low addresses).
// Measured on linux/amd64 with a 60-row study and its report: 3 of 3 runs
// fail at 1,250,000, 1 of 3 pass at 1,300,000 at -j 2, and 5 of 5 pass at
// 1,350,000, 1,400,000 and 1,450,000 at -j 2 and -j 8.
const minAddressSpaceKiB = 1_400_000

func main() {
	if err := checkAddressSpace(); err != nil {
		fmt.Fprintf(os.Stderr, "fgrtbench: %v\n", err)
		os.Exit(1)
	}
	args := os.Args[1:]
	ctx, stop := signalContext(os.Stderr, os.Exit, func() string { return cli.SecondSignal(args) })
	defer stop()
	env := &command.Env{
		Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
		StderrIsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
	}
	stopProfile, err := startCPUProfile(os.Getenv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fgrtbench: %v\n", err)
		os.Exit(2)
	}
	rc := cli.Main(ctx, env, args)
	if err := stopProfile(); err != nil {
		fmt.Fprintf(os.Stderr, "fgrtbench: %v\n", err)
		rc = max(rc, 1)
	}
	os.Exit(rc)
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
