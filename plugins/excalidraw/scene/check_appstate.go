package scene

// checkAppState checks the types of the three appState members that are
// written back. Restore falls back to defaults for a bad gridSize and the
// rest is view state, so these are warnings.
func (v *validator) checkAppState() {
	a := v.doc.appState
	if a == nil {
		return
	}
	if val, ok := a.Get("viewBackgroundColor"); ok {
		if _, isString := val.(string); !isString {
			v.warnf(CodeInvalidField, pointer(keyAppState, "viewBackgroundColor"), "", "viewBackgroundColor must be a string, got %s", describe(val, true))
		}
	}
	if val, ok := a.Get("gridSize"); ok && val != nil {
		if f, st := toNumber(val); st != numOK || f < 0 {
			v.warnf(CodeInvalidField, pointer(keyAppState, "gridSize"), "", "gridSize must be null or a non-negative number, got %s", describe(val, true))
		}
	}
	if val, ok := a.Get("gridModeEnabled"); ok {
		if _, isBool := val.(bool); !isBool {
			v.warnf(CodeInvalidField, pointer(keyAppState, "gridModeEnabled"), "", "gridModeEnabled must be a boolean, got %s", describe(val, true))
		}
	}
}
