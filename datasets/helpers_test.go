package datasets

import "bytes"

// Helpers that only the tests use: no part of the package's API.

// ParseFile reads a dataset from data, the content of the file at path
// (which chooses the format, names the dataset and appears in messages).
// Callers that also checksum the file parse the very bytes they hashed.
func ParseFile(path string, data []byte, o CSVOptions) (*Dataset, error) {
	if err := checkFormat(path, o); err != nil {
		return nil, err
	}
	return readFormat(bytes.NewReader(data), path, o)
}
