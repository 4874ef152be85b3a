package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/internal/duration"
)

// dataFlags are the flags every command that reads datasets shares.
type dataFlags struct {
	cache, mirror, baseURL string
	timeout                time.Duration
}

func (d *dataFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&d.cache, "cache", "", "dataset cache directory (default $FGRT_CACHE_DIR or the user cache dir)")
	fs.StringVar(&d.mirror, "mirror", "", "directory of <name>.dat files to use instead of downloading (default $FGRT_DATA_MIRROR)")
	fs.StringVar(&d.baseURL, "base-url", "", "download <base-url>/<name>.zip instead of from KEEL (an institutional mirror of the archives)")
	d.timeout = 2 * time.Minute
	fs.Var(positiveDuration{&d.timeout}, "timeout", "timeout per download, above 0 (default 2m0s)")
}

// positiveDuration is a duration flag that refuses 0 and negative values,
// which the fetcher would otherwise read as its default.
type positiveDuration struct{ d *time.Duration }

func (p positiveDuration) String() string {
	if p.d == nil {
		return ""
	}
	return p.d.String()
}

func (p positiveDuration) Set(s string) error {
	v, err := duration.ParsePositive(s)
	if err != nil {
		return err
	}
	*p.d = v
	return nil
}

func (d *dataFlags) fetcher(env *command.Env) *datasets.Fetcher {
	f := datasets.NewFetcherFromEnv()
	if d.cache != "" {
		f.CacheDir = d.cache
	}
	if d.mirror != "" {
		f.Mirror = d.mirror
	}
	if d.baseURL != "" {
		f.BaseURL = d.baseURL
	}
	f.Timeout = d.timeout
	f.FileProgress = loadProgress
	return f
}

func init() {
	register(fetchCommand)
	register(datasetsCommand)
}

func fetchCommand() *command.Command {
	c := &command.Command{Name: "fetch", Short: "download (or copy from a mirror), verify and cache datasets", UsageLine: "[flags] [dataset ...]", Positional: true,
		Long: `Fetch downloads the named datasets (all ten when none is named) from KEEL,
or copies them from --mirror, verifies each file's normalised SHA-256 and
caches it. Every command that reads a dataset fetches it when needed; fetch
does so ahead of time.`}
	fs := &c.Flag
	var df dataFlags
	df.add(fs)
	c.Run = func(ctx context.Context, env *command.Env, args []string) error {
		names := fs.Args()
		if len(names) == 0 {
			names = datasets.Names()
		}
		for _, n := range names {
			if _, err := datasets.Lookup(n); err != nil {
				return err
			}
		}
		f := df.fetcher(env)
		f.Log = env.Stderr // the fetch command reports every cache hit, copy and download
		for _, n := range names {
			path, err := f.Fetch(ctx, n)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "%-13s ok  %s\n", n, path)
		}
		return nil
	}
	return c
}

func datasetsCommand() *command.Command {
	d := &command.Command{Name: "datasets", Short: "print the dataset table computed from the verified files (or from your own .dat/.arff/.csv files)", UsageLine: "[flags] [dataset or file ...]", Positional: true,
		Long: `Datasets prints the table of the named datasets (all ten when none is
named) computed from the verified files, with differences from the paper
flagged. The path of a .dat, .arff or .csv file prints that file's row, with
the identity of its table that a run's manifest and a baseline record for
it (docs/data.md).`}
	fs := &d.Flag
	var df dataFlags
	df.add(fs)
	d.Run = func(ctx context.Context, env *command.Env, args []string) error {
		rows, err := df.fetcher(env).Summaries(ctx, fs.Args())
		if err != nil {
			return err
		}
		datasets.WriteSummaryTable(env.Stdout, rows)
		return nil
	}
	return d
}

// loadDataset loads a registry dataset, or a data file of the user's own,
// as a study names it (datasets.Fetcher.LoadAs); loadDatasetFrom reads a
// study's dataset from the path the study gives it (Study.DataPath).
func loadDataset(ctx context.Context, f *datasets.Fetcher, name string) (*datasets.Dataset, error) {
	return f.LoadAs(ctx, name, name)
}

func loadDatasetFrom(ctx context.Context, f *datasets.Fetcher, name, path string) (*datasets.Dataset, error) {
	return f.LoadAs(ctx, name, path)
}

// loadProgress reports on stderr, every few seconds, how far the reading
// of a large data file is.
func loadProgress(name string) func(read, size int64) {
	var last time.Time
	start := time.Now()
	return func(read, size int64) {
		if size < 64<<20 || time.Since(last) < 2*time.Second {
			return
		}
		if !last.IsZero() || time.Since(start) > 2*time.Second {
			fmt.Fprintf(os.Stderr, "fgrtbench: reading %s: %d%% of %d MB\n", name, 100*read/size, size>>20)
		}
		if last.IsZero() {
			last = start
		} else {
			last = time.Now()
		}
	}
}
