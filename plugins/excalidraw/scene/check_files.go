package scene

// checkAttachments checks every member of files (see checkAttachment) and
// the attachment limits. Parse runs it too: a scene carrying something
// other than an image, or more data than allowed, is refused on read.
func (v *validator) checkAttachments() {
	files := v.files()
	var total int64
	for _, key := range files.Keys() {
		val, _ := files.Get(key)
		n, problem := checkAttachment(key, val)
		total += n
		if problem != "" {
			v.errorf(CodeInvalidAttachment, pointer(keyFiles, key), "", "%s", problem)
		}
	}
	if n := files.Len(); n > v.lim.MaxFiles {
		v.push(overLimit(CodeTooManyFiles, pointer(keyFiles), "", int64(n), int64(v.lim.MaxFiles)))
	}
	if total > v.lim.MaxFileBytes {
		v.push(overLimit(CodeFilesTooLarge, pointer(keyFiles), "", total, v.lim.MaxFileBytes))
	}
}

// checkImageFiles checks that each image names an attachment, and that
// each attachment is used. Excalidraw saves only the files of live images,
// so a deleted image without its file is normal (a warning), and a file
// without a live image is dropped on its next save (a warning).
func (v *validator) checkImageFiles() {
	files := v.files()
	used := make(map[string]bool, files.Len())
	for i := range v.n {
		e := v.at(i)
		if e.typ != "image" {
			continue
		}
		raw, present := e.el.Get("fileId")
		fid, isString := raw.(string)
		if present && raw != nil && !isString {
			continue // a shape error, reported by checkFields
		}
		sev := SeverityError
		if e.deleted {
			sev = SeverityWarning
		} else if fid != "" {
			used[fid] = true
		}
		switch {
		case fid == "":
			v.add(CodeMissingFile, sev, elementPointer(i, "fileId"), e.id, "image has no fileId")
		case !files.Has(fid):
			v.add(CodeMissingFile, sev, elementPointer(i, "fileId"), e.id, "fileId %q names no attachment in files", fid)
		}
	}
	for _, key := range files.Keys() {
		if !used[key] {
			v.warnf(CodeUnusedFile, pointer(keyFiles, key), "", "attachment %q is used by no live image; Excalidraw drops it on its next save", key)
		}
	}
}
