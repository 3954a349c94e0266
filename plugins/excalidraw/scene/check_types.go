package scene

// checkTypes reports element types the plugin does not support. Excalidraw
// drops elements of unknown types when it opens a file, so keeping one in
// a scene means it disappears for every editor user: an error, except for
// the legacy types restore itself migrates (see legacyTypes).
func (v *validator) checkTypes() {
	for i := range v.n {
		e := v.at(i)
		t := e.typ
		if t == "" || IsSupported(t) {
			continue
		}
		if why, legacy := legacyTypes[t]; legacy {
			v.warnf(CodeUnsupportedType, elementPointer(i, "type"), e.id, "legacy element type %q: %s", t, why)
			continue
		}
		v.errorf(CodeUnsupportedType, elementPointer(i, "type"), e.id, "unsupported element type %q", t)
	}
}
