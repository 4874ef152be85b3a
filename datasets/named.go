package datasets

import "context"

// LoadAs loads a dataset as a study names it: a registry name through the
// fetcher (verified against the registry's checksum), or a data file of
// the user's own read from path, once, and parsed from the very bytes its
// checksum covers. Either way the Dataset's Checksum is the file's
// normalised SHA-256 (a manifest records Identity, the identity of the
// parsed table).
func (f *Fetcher) LoadAs(ctx context.Context, name, path string) (*Dataset, error) {
	if !IsDataFile(name) {
		return f.Load(ctx, name)
	}
	opts := LoadOptions{Context: ctx}
	if f.FileProgress != nil {
		opts.Progress = f.FileProgress(path)
	}
	ds, err := LoadFile(path, opts)
	if err != nil {
		return nil, err
	}
	ds.Name = name
	return ds, nil
}

// Summaries loads and summarises the named datasets (all the registry's
// when none). A data file of the user's own is read as a study would read
// it, and its row notes the identity of its table (Identity), which a
// run's manifest and a baseline record.
func (f *Fetcher) Summaries(ctx context.Context, names []string) ([]Summary, error) {
	if len(names) == 0 {
		names = Names()
	}
	var rows []Summary
	for _, n := range names {
		if err := CheckName(n); err != nil {
			return nil, err
		}
		var info Info
		if !IsDataFile(n) {
			var err error
			if info, err = Lookup(n); err != nil {
				return nil, err
			}
		}
		ds, err := f.LoadAs(ctx, n, n)
		if err != nil {
			return nil, err
		}
		s := Summarize(ds, info)
		if IsDataFile(n) {
			s.Notes = append(s.Notes, "identity "+Identity(ds))
		}
		rows = append(rows, s)
	}
	return rows, nil
}
