package study

// WithPrograms returns the study as the manifest records it: each external
// method's spec notes the program its command resolves to on this machine
// (provenance only, outside the identity). The study itself is left as it
// is; the specs are copied.
func WithPrograms(s Study) Study {
	out := s
	out.Methods = append([]MethodSpec(nil), s.Methods...)
	for i, m := range out.Methods {
		if m.External != nil {
			e := *m.External
			e.RecordProgram()
			out.Methods[i].External = &e
		}
	}
	return out
}
