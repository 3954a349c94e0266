package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/geom"

// Report is the outcome of a validation.
type Report struct {
	// Valid is true when no diagnostic has error severity.
	Valid       bool         `json:"valid"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Omitted counts the diagnostics found past Limits.MaxDiagnostics
	// and not listed.
	Omitted int   `json:"omitted,omitempty"`
	Stats   Stats `json:"stats"`
}

// Stats describe a scene.
type Stats struct {
	// Elements counts the elements array, tombstones included (as
	// [Document.ElementCount]).
	Elements int `json:"elements"`
	// Deleted counts the tombstones (isDeleted true).
	Deleted int `json:"deleted"`
	// ByType counts elements per type, tombstones included, so that the
	// counts add up to Elements (entries without a string type are not
	// counted).
	ByType map[string]int `json:"byType"`
	// Files counts attachments; FileBytes sums their data-URL lengths.
	Files     int   `json:"files"`
	FileBytes int64 `json:"fileBytes"`
	// Bounds is the box around the live elements, nil when there are none.
	Bounds *geom.Rect `json:"bounds,omitempty"`
}

// Errors returns the error-severity diagnostics.
func (r Report) Errors() []Diagnostic {
	var out []Diagnostic
	for _, d := range r.Diagnostics {
		if d.Severity == SeverityError {
			out = append(out, d)
		}
	}
	return out
}

// Count returns how many diagnostics have the code.
func (r Report) Count(code string) int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.Code == code {
			n++
		}
	}
	return n
}

// Err returns nil for a valid report, else the first error as a
// *sceneerr.Error (see [Diagnostic.Err]) with the number of errors in
// details "errors".
func (r Report) Err() error {
	errs := r.Errors()
	if len(errs) == 0 {
		return nil
	}
	return errs[0].Err().With("errors", len(errs))
}
