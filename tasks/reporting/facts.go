package reporting

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/memsize"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
)

// absentManifest is what a report says of results without a readable
// manifest: why (without the directory's path: no output names one), and
// the partial mark of results.csv's first line, which a partial merge
// still carries.
func absentManifest(dir string, err error) (string, []reports.Fact) {
	why := "no manifest.json beside results.csv"
	if !errors.Is(err, fs.ErrNotExist) {
		why = "unreadable: " + strings.ReplaceAll(err.Error(), dir, "<results>")
	}
	facts := []reports.Fact{{Key: "manifest", Value: "absent (" + why + ")"}}
	note := partialMark(filepath.Join(dir, results.FileName))
	if note == "" {
		return "", facts
	}
	partial := note + " (the mark in results.csv; its manifest.json is absent)"
	return partial, append([]reports.Fact{partialFact(partial)}, facts...)
}

// onlyStudyRows refuses results that hold rows of none of the units of the
// study dir's manifest records (rows appended from another run), which a
// report or figure would show as this study's.
func onlyStudyRows(dir string, m *manifest.Manifest, recs []results.Record) error {
	if m.Identity == nil {
		// Without it neither foreign rows nor a partial study can be told.
		return fmt.Errorf("%s records no study identity (the block was removed, or an fgrtbench older than identities wrote it), so whose rows %s holds cannot be checked; re-run the study into a new --out", filepath.Join(dir, manifest.FileName), filepath.Join(dir, results.FileName))
	}
	// The check resume and merge apply: a manifest either would refuse
	// (an edited method version or dataset checksum) is not reported.
	if err := m.Verify(dir); err != nil {
		return err
	}
	if reason := outdir.ForeignRow(filepath.Join(dir, results.FileName), *m.Identity, recs); reason != "" {
		return fmt.Errorf("%s; the study is the one %s records, and results of two studies are not shown as one", reason, filepath.Join(dir, manifest.FileName))
	}
	return outdir.CheckSelected(*m.Identity, recs, filepath.Join(dir, results.FileName))
}

// partialMark returns what a results file's partial mark (its first line,
// written by merge --allow-partial) says, without the pointer to the
// manifest; "" when it has none.
func partialMark(path string) string {
	f, err := safefile.Open(path, safefile.ResultsCap)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	note, ok := strings.CutPrefix(strings.TrimSpace(line), results.PartialMark)
	if !ok {
		return ""
	}
	note, _, _ = strings.Cut(strings.TrimSpace(note), "; see ")
	return note
}

// partialNote says how results fall short of their manifest's study ("" when
// they hold every unit): a shard, a partial merge, failed or interrupted
// units.
func partialNote(m *manifest.Manifest, recs []results.Record) string {
	var note string
	switch {
	case m.Identity != nil:
		missing := outdir.Missing(*m.Identity, recs)
		if len(missing) == 0 {
			return ""
		}
		note = fmt.Sprintf("%d of the study's %d units", m.Identity.Units-len(missing), m.Identity.Units)
	case m.Shard == "" || m.Shard == "all":
		return "" // an older manifest without identity: nothing to compare with
	}
	switch {
	case m.Partial != nil && len(m.Partial.MissingShards) > 0:
		note += ", merged without shard " + strings.Join(m.Partial.MissingShards, ", ")
	case m.Shard != "" && m.Shard != "all" && m.Shard != "merged":
		note += fmt.Sprintf(" (shard %s; merge every shard and report the merged directory)", m.Shard)
	}
	return strings.TrimPrefix(note, ", ")
}

// partialFact is the run-facts row of results that miss part of their study.
func partialFact(partial string) reports.Fact {
	return reports.Fact{Key: "PARTIAL", Value: "these results hold " + partial + ", not the whole study"}
}

// manifestFacts are the report's run facts from the manifest.
func manifestFacts(m *manifest.Manifest, partial string) []reports.Fact {
	var facts []reports.Fact
	if partial != "" {
		facts = append(facts, partialFact(partial))
	}
	facts = append(facts, []reports.Fact{
		{Key: "tool", Value: fmt.Sprintf("%s %s (%s)", m.Module, m.Version, revision(m))},
		{Key: "go", Value: fmt.Sprintf("%s %s/%s, %d CPUs, -j %d", m.GoVersion, m.GOOS, m.GOARCH, m.NumCPU, m.Jobs)},
		{Key: "command", Value: safeCommand(m.Command)},
		{Key: "run", Value: fmt.Sprintf("%s to %s; %d units (%d run, %d resumed, %d failed), shard %s",
			m.Start.Format("2006-01-02 15:04:05Z"), m.End.Format("15:04:05Z"), m.Units, m.Ran, m.Skipped, m.Failed, m.Shard)},
	}...)
	if m.Memory != nil {
		facts = append(facts, reports.Fact{Key: "memory", Value: memoryFact(m.Memory)})
	}
	if m.Identity != nil {
		facts = append(facts, reports.Fact{Key: "study identity", Value: fmt.Sprintf("%s (%d units in %d groups; each results.csv key carries its group's hash)", m.Identity.Hash, m.Identity.Units, len(m.Identity.Groups))})
	}
	if n := len(m.History); n > 1 {
		facts = append(facts, reports.Fact{Key: "history", Value: fmt.Sprintf("%d invocations wrote these results, the first at %s (listed in manifest.json)", n, m.History[0].Start.Format("2006-01-02 15:04:05Z"))})
	}
	return facts
}

func revision(m *manifest.Manifest) string {
	if m.VCSRevision == "" {
		return "no VCS revision"
	}
	r := m.VCSRevision
	if len(r) > 12 {
		r = r[:12]
	}
	if m.VCSModified {
		r += ", modified"
	}
	return "revision " + r
}

// safeCommand joins a command line with every argument that names a path
// reduced to its last element, so that no path of the machine that ran the
// study reaches a report.
func safeCommand(cmd []string) string {
	out := make([]string, len(cmd))
	for i, a := range cmd {
		flag, val, isFlag := strings.Cut(a, "=")
		if !isFlag || !strings.HasPrefix(flag, "-") {
			flag, val = "", a
		}
		if strings.ContainsAny(val, "/\\") {
			val = filepath.Base(val)
		}
		if flag != "" {
			val = flag + "=" + val
		}
		out[i] = val
	}
	return strings.Join(out, " ")
}

// memoryFact is the report's run-section line of a run's memory budget and
// peak: "budget 12.34 GB (the default, ...); peak resident memory 1.02 GB".
func memoryFact(m *manifest.Memory) string {
	budget := "no budget"
	if m.BudgetBytes > 0 {
		budget = "budget " + memsize.Format(m.BudgetBytes)
	}
	if m.Budget != "" {
		budget += " (" + m.Budget + ")"
	}
	peak := "peak resident memory unknown"
	if m.PeakRSSBytes > 0 {
		peak = "peak resident memory " + memsize.Format(m.PeakRSSBytes) + " by the end of the run"
	}
	return budget + "; " + peak
}
