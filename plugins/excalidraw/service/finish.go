package service

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// maxDiagnosticsInError bounds the diagnostics a rejected write's error
// carries: enough to fix a call, not a 1,000-entry dump into an agent's
// context.
const maxDiagnosticsInError = 20

// finish turns an edited document into the bytes to store: Normalize (so
// the file is a fixed point of Excalidraw's restore), Validate (no errors
// allowed, see check), then encode under the limits.
func (s *Service) finish(doc *scene.Document) ([]byte, error) {
	data, _, _, err := s.finishSplit(doc)
	return data, err
}

// finishReporting is finish, also returning what Normalize repaired, for
// a write whose caller sent a whole scene and must learn that what is
// stored differs from it (Save).
func (s *Service) finishReporting(doc *scene.Document) ([]byte, scene.NormalizeReport, error) {
	data, rep, _, err := s.finishSplit(doc)
	return data, rep, err
}

// finishSplit is finish, also returning what Normalize repaired and the
// bytes cut into the document's elements (which of them were encoded
// anew: preview). The document is sealed (its elements frozen,
// scene.Document.Seal) and given up for writing: the next write of the
// scene forks it (docCache, editStored).
func (s *Service) finishSplit(doc *scene.Document) ([]byte, scene.NormalizeReport, *scene.Split, error) {
	rep := scene.Normalize(doc)
	if err := s.check(doc); err != nil {
		return nil, rep, nil, err
	}
	data, sp, err := scene.Codec{Limits: s.limits}.EncodeSplit(doc)
	if err != nil {
		return nil, rep, nil, mapError(err)
	}
	doc.Seal(sp, s.limits)
	s.docs.finished(data, doc, sp)
	return data, rep, sp, nil
}

// check validates doc and converts its errors into one *sceneerr.Error.
// A limit violation wins (too_large, too_many_elements: the caller must
// shrink, not fix); otherwise the code is the first error's, mapped as
// scene.ErrorCode maps it (invalid_scene, or the more precise
// unsupported_element, duplicate_id, invalid_reference), the same code
// scene.Report.Err gives, so every layer agrees. The first
// maxDiagnosticsInError diagnostics are in details "diagnostics".
func (s *Service) check(doc *scene.Document) error {
	errs := scene.Errors(doc, s.limits)
	if len(errs) == 0 {
		return nil
	}
	for _, d := range errs {
		if c := scene.ErrorCode(d.Code); c == sceneerr.TooLarge || c == sceneerr.TooManyElements {
			return d.Err()
		}
	}
	shown := errs
	if len(shown) > maxDiagnosticsInError {
		shown = shown[:maxDiagnosticsInError]
	}
	return errs[0].Err().With("diagnostics", shown).With("errors", len(errs))
}
