// Package names is the one rule for the names people and programs give
// dsh — tokens, people, boards, folders, scenes — and the one way the
// command line prints them.
//
// A name is text that prints as itself: valid UTF-8 with no control
// characters (U+0000–U+001F, U+007F–U+009F), no line or paragraph
// separators and no bidirectional embeddings, overrides or isolates,
// which would let a name rewrite the terminal or the line it is shown on.
// [Check] refuses anything else with apierr.CodeInvalidName before the
// name is trimmed or stored, so a refusal changes nothing. Each kind of
// name may be narrower still (a scene name is a-z, 0-9, '.', '_' and
// '-'); none is wider.
//
// [Display] is for listings: names kept before this rule, or read from
// somewhere it does not reach, are shown quoted rather than raw.
package names

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// Error is Check's refusal: what the name is of (Field: "token name",
// "folder name"…) and why. It is an apierr.Coded, so every HTTP surface
// and the tools registry answer it as invalid_name, 400.
type Error struct {
	// Field says what the name is ("token name", "name", "folder name").
	Field string
	// Reason says what is wrong, in words for people.
	Reason string
}

var _ apierr.Coded = (*Error)(nil)

// Error is "invalid_name: message", as the command line prints it.
func (e *Error) Error() string { return apierr.CodeInvalidName + ": " + e.ErrorMessage() }

// ErrorCode is apierr.CodeInvalidName.
func (e *Error) ErrorCode() string { return apierr.CodeInvalidName }

// ErrorMessage says which name and why, never echoing a raw control
// character.
func (e *Error) ErrorMessage() string {
	return e.Field + " must be printable text: " + e.Reason
}

// HTTPStatus is 400.
func (e *Error) HTTPStatus() int { return http.StatusBadRequest }

// ErrorDetails names the field.
func (e *Error) ErrorDetails() map[string]any { return map[string]any{"field": e.Field} }

// Check is nil when name is printable text (see the package comment),
// else an *Error naming field. It looks at name as given, before any
// trimming: a name that ends in a newline is refused, not cut.
func Check(field, name string) error {
	if !utf8.ValidString(name) {
		return &Error{Field: field, Reason: "it is not valid UTF-8"}
	}
	for i, r := range name {
		if refused(r) {
			return &Error{Field: field, Reason: fmt.Sprintf("it has the control character %U at byte %d", r, i)}
		}
	}
	return nil
}

// refused reports whether r may not appear in a name: a C0 or C1 control
// (NUL, ESC, a line break, DEL…), a line or paragraph separator, or a
// bidirectional embedding, override or isolate.
func refused(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r == '\u2028' || r == '\u2029':
		return true
	case '\u202a' <= r && r <= '\u202e', '\u2066' <= r && r <= '\u2069':
		return true
	}
	return false
}

// Display is name as a listing shows it: as it is when every rune
// prints as itself (strconv.IsPrint, so a space does and a tab does
// not), else Go-quoted ("a\x1b[31m"), so a stored name can never write
// escape sequences to a terminal or pass for another. A name that starts
// with a double quote is quoted too, so it cannot pass for a quoted one.
func Display(name string) string {
	if strings.HasPrefix(name, `"`) || strings.IndexFunc(name, func(r rune) bool { return !strconv.IsPrint(r) }) >= 0 || !utf8.ValidString(name) {
		return strconv.Quote(name)
	}
	return name
}
