package external

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// Describe writes what 'fgrtbench methods external' shows: the external
// kind has no fixed parameters, so it explains the keys of its spec block
// and the command's placeholders instead.
func Describe(w io.Writer) {
	fmt.Fprint(w, `external  (a learner in any language, run through files; contract: docs/external.md)
  a spec declares one per method, e.g.
    - name: external
      label: sklearn-tree                 # its column in results.csv and the reports
      external:
        command: python3 sklearn_tree.py {dir}   # runs in the spec file's directory: relative
                                          # paths name files beside the spec
        mode: worker                      # one adapter process per harness worker, jobs sent on
                                          # its stdin (default process: a process per job)
        worker_jobs: 0                    # worker mode: a fresh worker every N jobs (0: never)
        adapter: FILE                     # optional: the file whose SHA-256 identifies the method
                                          # (default: the word after the program naming a file)
        params: {max_depth: "null"}       # its parameters and defaults; the method's params:,
                                          # sweep: and selection: work as for any method
        timeout: 2m                       # per job (default 10m)
        deterministic: false              # true: the method ignores the seed
  placeholders of the command ({NAME}: the value of the declared parameter NAME):
`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range Placeholders() {
		fmt.Fprintf(tw, "    %s\t%s\n", p[0], p[1])
	}
	tw.Flush()
	fmt.Fprintln(w, "  try: fgrtbench run --spec examples/external/sklearn.yaml --out out/sklearn   (python3 with scikit-learn; from any directory)")
	fmt.Fprintln(w, "  debug one job: fgrtbench external try --spec examples/external/sklearn.yaml --method sklearn-tree")
}
