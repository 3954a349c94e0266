package scene

// ParseStrict reads a scene that is about to be written or handed to an
// editor: it is [Parse] followed by [Validate], and it fails unless the
// report is valid and every element type is supported (legacy types,
// mere warnings in a report, are refused here too: the plugin writes only
// types it supports). The error is a *sceneerr.Error whose code follows
// the first failing diagnostic (see [ErrorCode]): unsupported_element,
// duplicate_id, invalid_reference (dangling bindings, frames, containers,
// missing files), too_large, too_many_elements or invalid_scene.
func ParseStrict(data []byte, lim Limits) (*Document, error) {
	doc, err := Parse(data, lim)
	if err != nil {
		return nil, err
	}
	r := Validate(doc, lim)
	for _, d := range r.Diagnostics {
		if d.Code == CodeUnsupportedType {
			return nil, d.Err()
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return doc, nil
}
