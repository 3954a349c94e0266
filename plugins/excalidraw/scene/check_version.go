package scene

// checkVersion warns about a document whose version is not [Version]. It
// is no error: Excalidraw opens such a file all the same (its loader looks
// at the type only), and so does [Parse]; the warning tells the caller
// that the next write upgrades the file to version 2.
func (v *validator) checkVersion() {
	val, ok := v.doc.members.Get(keyVersion)
	if n, st := toNumber(val); ok && st == numOK && n == Version {
		return
	}
	if !ok {
		v.warnf(CodeDocumentVersion, pointer(keyVersion), "", "version is missing; the scene is written as version %d", Version)
		return
	}
	v.warnf(CodeDocumentVersion, pointer(keyVersion), "", "version is %s, not %d; the scene is read as it is and written as version %d", describe(val, true), Version, Version)
}
