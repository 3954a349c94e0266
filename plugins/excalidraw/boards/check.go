package boards

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/names"
)

// Limits of the texts, in characters (Unicode code points), after trimming.
const (
	MaxTitle       = 120
	MaxDescription = 300
	MaxFolderName  = 80
)

// CheckTitle returns title as it is stored: without surrounding white
// space, one line of at most MaxTitle characters. "" is allowed (the board
// is shown by its name). Anything else is an invalid_operation error that
// says what is allowed.
func CheckTitle(title string) (string, error) {
	return checkText("title", title, "one line of at most 120 characters", 0, MaxTitle)
}

// CheckDescription returns desc as it is stored: without surrounding
// white space, one paragraph (no line breaks) of at most MaxDescription
// characters; "" is allowed.
func CheckDescription(desc string) (string, error) {
	return checkText("description", desc, "one paragraph (no line breaks) of at most 300 characters", 0, MaxDescription)
}

// CheckFolderName returns name as it is stored: without surrounding white
// space, one line of 1 to MaxFolderName characters. A name with a
// control character is the host's invalid_name (names.Check), as every
// name is; its other faults are invalid_operation.
func CheckFolderName(name string) (string, error) {
	if err := names.Check("folder name", name); err != nil {
		return "", sceneerr.FromCoded(err.(*names.Error))
	}
	return checkText("folder name", name, "one line of 1 to 80 characters", 1, MaxFolderName)
}

// CheckRole accepts the roles a member can have: identity.RoleEditor and
// identity.RoleViewer. The owner is not a member; ownership is moved with
// [Store.SetOwner].
func CheckRole(role string) error {
	switch role {
	case identity.RoleEditor, identity.RoleViewer:
		return nil
	case identity.RoleOwner:
		return sceneerr.New(sceneerr.InvalidOperation, "a member's role must be %q or %q (got %q: a board has one owner, changed by transferring ownership)",
			identity.RoleEditor, identity.RoleViewer, role).With("field", "role")
	}
	return sceneerr.New(sceneerr.InvalidOperation, "a member's role must be %q or %q (got %q)",
		identity.RoleEditor, identity.RoleViewer, role).With("field", "role")
}

// checkText trims s and checks that it is valid text on one line with no
// control characters, of min to max characters. field names it and rule
// says what is allowed, in the messages.
func checkText(field, s, rule string, min, max int) (string, error) {
	fail := func(why string, args ...any) (string, error) {
		return "", sceneerr.New(sceneerr.InvalidOperation, "%s must be %s (%s)", field, rule, fmt.Sprintf(why, args...)).
			With("field", field).With("max", max)
	}
	if !utf8.ValidString(s) {
		return fail("it is not valid UTF-8 text")
	}
	s = strings.TrimSpace(s)
	for _, r := range s {
		if isLineBreak(r) {
			return fail("it has a line break")
		}
		if unicode.IsControl(r) {
			return fail("it has the control character %U", r)
		}
	}
	if n := utf8.RuneCountInString(s); n < min || n > max {
		if n == 0 {
			return fail("got an empty one")
		}
		return fail("got %d", n)
	}
	return s, nil
}

func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// checkName is store.ValidName as a sceneerr error.
func checkName(name string) error {
	err := store.ValidName(name)
	if err == nil {
		return nil
	}
	var se *store.Error
	if errors.As(err, &se) {
		return &sceneerr.Error{Code: sceneerr.InvalidName, Message: se.Message, Details: maps.Clone(se.Details)}
	}
	return sceneerr.New(sceneerr.InvalidName, "%v", err).With("name", name)
}

// checkPerson checks a person id given as a member or an owner: one
// token, no white space or control characters.
func checkPerson(what, id string) error {
	if id == "" {
		return sceneerr.New(sceneerr.InvalidOperation, "%s must be a person id (got an empty one)", what)
	}
	if !utf8.ValidString(id) || strings.IndexFunc(id, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return sceneerr.New(sceneerr.InvalidOperation, "%s must be a person id without spaces or control characters (got %q)", what, id)
	}
	return nil
}
