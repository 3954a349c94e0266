package scene

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// MaxColorLength bounds a colour string, in characters: appState's
// viewBackgroundColor here, and an element's strokeColor and
// backgroundColor where agents set them. CSS colours are far shorter
// ("rgba(255, 255, 255, 0.5)" is 24 characters); the bound keeps a
// megabyte of junk out of a field every renderer reads.
const MaxColorLength = 64

// The grid sizes Excalidraw keeps as they are: its restoreAppState
// rounds gridSize and clamps it to this range (getNormalizedGridSize), so
// a file holding any other number changes the next time the editor saves
// it. null means no grid.
const (
	MinGridSize = 1
	MaxGridSize = 100
)

// checkAppState checks the three appState members that are written back
// (see [CheckAppState] for the rules). A file another program wrote still
// opens with bad values (restore falls back to defaults or clamps), and
// the rest of appState is view state, so here these are warnings.
func (v *validator) checkAppState() {
	a := v.doc.appState
	if a == nil {
		return
	}
	for _, d := range appStateDiagnostics(a, SeverityWarning) {
		v.push(d)
	}
}

// CheckAppState is the check every write applies to the appState members
// the contract round-trips: viewBackgroundColor a string of 1 to
// [MaxColorLength] characters, gridSize null or an integer from
// [MinGridSize] to [MaxGridSize], gridModeEnabled a boolean. It returns
// the first member of a (in a's order) that breaks a rule, as an
// error-severity invalid_field diagnostic at /appState/<member>, and
// false when there is none. Other members are not looked at: they are one
// viewer's state, which Marshal drops. [Validate] reports the same
// problems as warnings, because a stored file must stay readable; a write
// refuses them, so that what is stored is what Excalidraw keeps.
func CheckAppState(a *ojson.Object) (Diagnostic, bool) {
	if a == nil {
		return Diagnostic{}, false
	}
	if ds := appStateDiagnostics(a, SeverityError); len(ds) > 0 {
		return ds[0], true
	}
	return Diagnostic{}, false
}

// appStateDiagnostics checks the round-tripped members of a, in a's
// order, reporting each problem with severity sev.
func appStateDiagnostics(a *ojson.Object, sev Severity) []Diagnostic {
	var out []Diagnostic
	a.Range(func(k string, val any) bool {
		if msg := appStateProblem(k, val); msg != "" {
			out = append(out, Diagnostic{Code: CodeInvalidField, Severity: sev, Pointer: pointer(keyAppState, k), Message: msg})
		}
		return true
	})
	return out
}

// appStateProblem says what is wrong with val as the appState member k,
// "" when nothing is (or k is not a round-tripped member).
func appStateProblem(k string, val any) string {
	switch k {
	case "viewBackgroundColor":
		s, ok := val.(string)
		if !ok {
			return fmt.Sprintf("viewBackgroundColor must be a string, got %s", describe(val, true))
		}
		if n := utf8.RuneCountInString(s); n == 0 || n > MaxColorLength {
			return fmt.Sprintf("viewBackgroundColor must be a CSS color of 1 to %d characters, got %d", MaxColorLength, n)
		}
	case "gridSize":
		if val == nil {
			return ""
		}
		if f, st := toNumber(val); st != numOK || f != math.Trunc(f) || f < MinGridSize || f > MaxGridSize {
			return fmt.Sprintf("gridSize must be null or an integer from %d to %d, got %s", MinGridSize, MaxGridSize, describe(val, true))
		}
	case "gridModeEnabled":
		if _, ok := val.(bool); !ok {
			return fmt.Sprintf("gridModeEnabled must be a boolean, got %s", describe(val, true))
		}
	}
	return ""
}
