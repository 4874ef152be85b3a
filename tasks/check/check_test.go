package check

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/gate"
)

// cartStudy is a one-method study of one data file of the user's own.
func cartStudy(data string) study.Study {
	o := protocol.DefaultOptions()
	o.Folds, o.InnerFolds = 3, 2
	return study.Study{Protocols: []string{"clean"}, Datasets: []string{data}, Methods: []study.MethodSpec{{Name: "cart"}}, Options: o}
}

// writeIdentity writes a manifest into a fresh directory recording s with
// every group's dataset identified by checksum.
func writeIdentity(t *testing.T, s study.Study, checksum string) string {
	t.Helper()
	id, err := study.IdentityOf(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	groups := id.Groups
	for i := range groups {
		groups[i].DatasetSHA256 = checksum
	}
	id = identity.NewStudy(groups)
	m := manifest.New(s, 1, "all")
	m.Identity = &id
	dir := t.TempDir()
	if err := m.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestUpdateRefusesAnEarlierVersionsFileChecksum: results whose manifest
// identifies a data file of the user's own by its bytes (an fgrtbench
// before table identities) cannot give a baseline the table's identity;
// the update refuses them, naming the dataset, and records nothing.
func TestUpdateRefusesAnEarlierVersionsFileChecksum(t *testing.T) {
	s := cartStudy("mine.csv")
	out := writeIdentity(t, s, strings.Repeat("3d", 32)) // as an earlier version recorded mine.csv
	b := &gate.Baseline[study.Study]{Study: s}
	err := recordExperiment(b, &s, out)
	if err == nil || !strings.Contains(err.Error(), "identifies dataset mine.csv by a file checksum (3d3d3d3d3d3d…)") || b.Identity != nil {
		t.Errorf("err = %v, identity %+v", err, b.Identity)
	}
}

// TestCompleteNamesNoCommand: complete's messages are printed after the
// CLI's prefix, so they start with the flag, not the command.
func TestCompleteNamesNoCommand(t *testing.T) {
	err := complete(study.Study{}, nil, t.TempDir())
	if err == nil || strings.HasPrefix(err.Error(), "check") || !strings.HasPrefix(err.Error(), "--update: ") {
		t.Errorf("complete: %v", err)
	}
}
