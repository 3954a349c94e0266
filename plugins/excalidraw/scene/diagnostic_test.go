package scene

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestCodesAreUniqueSnakeCase(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Codes() {
		if seen[c] {
			t.Errorf("duplicate code %q", c)
		}
		seen[c] = true
		if c == "" || strings.ToLower(c) != c || strings.ContainsAny(c, " -") {
			t.Errorf("code %q is not snake_case", c)
		}
	}
}

func TestErrorCode(t *testing.T) {
	cases := map[string]sceneerr.Code{
		CodeTooLarge:          sceneerr.TooLarge,
		CodeFilesTooLarge:     sceneerr.TooLarge,
		CodeTooManyFiles:      sceneerr.TooLarge,
		CodeTextTooLong:       sceneerr.TooLarge,
		CodeTooManyElements:   sceneerr.TooManyElements,
		CodeUnsupportedType:   sceneerr.UnsupportedElement,
		CodeDuplicateID:       sceneerr.DuplicateID,
		CodeDanglingBinding:   sceneerr.InvalidReference,
		CodeMissingFile:       sceneerr.InvalidReference,
		CodeInvalidContainer:  sceneerr.InvalidReference,
		CodeDanglingFrame:     sceneerr.InvalidReference,
		CodeInvalidField:      sceneerr.InvalidScene,
		CodeInvalidAttachment: sceneerr.InvalidScene,
	}
	for code, want := range cases {
		if got := ErrorCode(code); got != want {
			t.Errorf("ErrorCode(%s) = %s, want %s", code, got, want)
		}
	}
	for _, c := range Codes() {
		if !slices.Contains(sceneerr.Codes(), ErrorCode(c)) {
			t.Errorf("%s maps to unknown error code %s", c, ErrorCode(c))
		}
	}
}

func TestDiagnosticErr(t *testing.T) {
	d := Diagnostic{Code: CodeDuplicateID, Severity: SeverityError, Message: "twice", ElementID: "a", Pointer: "/elements/1/id"}
	err := d.Err()
	if !errors.Is(err, sceneerr.New(sceneerr.DuplicateID, "")) {
		t.Fatalf("code: %v", err)
	}
	if err.Details["pointer"] != "/elements/1/id" || err.Details["elementId"] != "a" || err.Details["diagnostic"] != CodeDuplicateID {
		t.Errorf("details: %v", err.Details)
	}
	if s := d.String(); !strings.Contains(s, "duplicate_id") || !strings.Contains(s, "element a") {
		t.Errorf("String: %s", s)
	}
}
