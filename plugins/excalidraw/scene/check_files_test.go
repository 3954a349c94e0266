package scene

import "testing"

func TestImageFiles(t *testing.T) {
	live := imageEl("live", "f1")
	gone := imageEl("gone", "f-deleted").Set("isDeleted", true)
	d := docOf(live, gone)
	d.Files().Set("f1", fileEntry("f1"))
	rep := Validate(d, Limits{})
	only(t, rep, CodeMissingFile)
	if rep.Diagnostics[0].Severity != SeverityWarning || !rep.Valid {
		t.Errorf("deleted image without file: %s", rep.Diagnostics[0])
	}
}

func TestImageFileIDType(t *testing.T) {
	d := docOf(imageEl("i", "f").Set("fileId", num(3)))
	only(t, Validate(d, Limits{}), CodeInvalidField)
}

func TestFileOnlyUsedByDeletedImageIsUnused(t *testing.T) {
	d := docOf(imageEl("i", "f").Set("isDeleted", true))
	d.Files().Set("f", fileEntry("f"))
	only(t, Validate(d, Limits{}), CodeUnusedFile)
}

func TestAttachmentLimitsCountInvalidEntriesToo(t *testing.T) {
	d := NewDocument()
	d.Files().Set("a", fileEntry("a").Set("id", "b"))
	d.Files().Set("b", fileEntry("b"))
	rep := Validate(d, Limits{MaxFiles: 1, MaxFileBytes: int64(len(pngURL)) + 1})
	if len(find(rep, CodeInvalidAttachment)) != 1 || len(find(rep, CodeTooManyFiles)) != 1 || len(find(rep, CodeFilesTooLarge)) != 1 {
		t.Fatal(dump(rep.Diagnostics))
	}
}
