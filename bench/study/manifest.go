package study

import (
	"encoding/json"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
)

// FromManifest decodes the study a manifest records (stored untyped, as
// the runner wrote it).
func FromManifest(m *manifest.Manifest) (Study, error) {
	var s Study
	data, err := json.Marshal(m.Study)
	if err != nil {
		return s, err
	}
	err = json.Unmarshal(data, &s)
	return s, err
}
