package study

import "encoding/json"

// Recorded decodes the study a manifest records (stored untyped, as the
// runner wrote it), so that readers of an output directory get the typed
// study back without each re-encoding it.
func Recorded(stored any) (Study, error) {
	var s Study
	data, err := json.Marshal(stored)
	if err != nil {
		return s, err
	}
	err = json.Unmarshal(data, &s)
	return s, err
}
