package service

// A field a write was given but could not apply is not refused when it is
// harmless where it stands (a write's shared options, a frame's padding
// beside its box): the write goes on and the envelope's ignoredFields
// names it, with why, so nothing given is dropped unsaid; `strict` turns
// any of them into a refusal. A field that is wrong (unknown, out of
// range, not for the element's type) is refused with a pointer instead.

// ignored are the options o holds that the write cannot apply: a dry run
// writes nothing, so there is nothing to read back or to keep a note
// with.
func (o WriteOptions) ignored() []IgnoredField {
	if !o.DryRun {
		return nil
	}
	var out []IgnoredField
	if o.Verify {
		out = append(out, IgnoredField{Field: "/options/verify", Reason: "dryRun writes nothing to read back"})
	}
	if o.Note != "" {
		out = append(out, IgnoredField{Field: "/options/note", Reason: "dryRun commits nothing to keep the note with"})
	}
	return out
}
