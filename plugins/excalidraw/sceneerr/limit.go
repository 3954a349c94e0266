package sceneerr

import (
	"fmt"
	"strconv"
)

// Limit names one of a scene's limits by its key in the plugin's
// configuration (which is also its name in scene.Limits' JSON, as /health
// shows it), so an error can say which limit a write ran into and a UI
// can point at the setting.
type Limit string

// The limits of a scene. Every error for exceeding one is made by
// [OverLimit], so they all carry the same details.
const (
	MaxSceneBytes Limit = "maxSceneBytes" // the serialized document, in bytes
	MaxElements   Limit = "maxElements"   // live elements (tombstones are not counted)
	MaxFiles      Limit = "maxFiles"      // attachments
	MaxFileBytes  Limit = "maxFileBytes"  // the attachments' data URLs, in characters
	MaxTextLength Limit = "maxTextLength" // one text's characters (code points)
)

// limits is what each limit is refused with and what it counts, for the
// message.
var limits = map[Limit]struct {
	code          Code
	subject, unit string
}{
	MaxSceneBytes: {TooLarge, "the scene", "bytes"},
	MaxElements:   {TooManyElements, "the scene", "elements"},
	MaxFiles:      {TooLarge, "the scene", "attachments"},
	MaxFileBytes:  {TooLarge, "the attachments", "data-URL characters"},
	MaxTextLength: {TooLarge, "a text", "characters"},
}

// Code is the error code of exceeding the limit: too_many_elements for
// maxElements, too_large for the others (and for an unknown name).
func (l Limit) Code() Code {
	if li, ok := limits[l]; ok {
		return li.code
	}
	return TooLarge
}

// Describe says in words that a scene holds actual of what l counts, over
// max: "the scene has 10,001 elements; the limit is 10,000 (maxElements)".
// It is the message of a validation diagnostic; [OverLimit] says the same
// of a write's result.
func (l Limit) Describe(actual, max int64) string { return l.words("has", actual, max) }

func (l Limit) words(verb string, actual, max int64) string {
	li, ok := limits[l]
	if !ok {
		li.subject, li.unit = "the scene", "units of "+string(l)
	}
	return fmt.Sprintf("%s %s %s %s; the limit is %s (%s)", li.subject, verb, group(actual), li.unit, group(max), l)
}

// OverLimit is the error for a write whose result would exceed limit l
// with actual against max: the limit's code, a message that says so in
// words ("the scene would have 10,001 elements; the limit is 10,000
// (maxElements)") and details {"limit": "maxElements", "max": 10000,
// "actual": 10001} (max and actual are int64), so a client can tell
// which limit without reading the message.
func OverLimit(l Limit, actual, max int64) *Error {
	return New(l.Code(), "%s", l.words("would have", actual, max)).
		With("limit", string(l)).With("max", max).With("actual", actual)
}

// group writes n in decimal with commas between thousands.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
