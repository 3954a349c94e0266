package tools

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"go.uber.org/zap"
)

// maxReportedProblems caps the schema violations listed in an error so a
// huge bad argument cannot produce a huge error message.
const maxReportedProblems = 20

// ArgumentProblem is one schema violation, as listed under
// error.details.errors of an invalid-arguments result.
type ArgumentProblem struct {
	// Pointer is the RFC 6901 JSON pointer of the offending value inside
	// the arguments ("" is the arguments object itself).
	Pointer string `json:"pointer"`
	// Keyword is the JSON pointer of the failing schema keyword.
	Keyword string `json:"keyword"`
	Message string `json:"message"`
}

// validateArgs decodes and validates raw arguments and returns them
// re-encoded canonically, so the handler receives exactly the value that
// was validated (no duplicate keys, no whitespace tricks).
func (r *Registry) validateArgs(e *entry, raw json.RawMessage) (json.RawMessage, *Error) {
	var v any = map[string]any{}
	if !isBlankJSON(raw) {
		decoded, err := decodeJSON(raw)
		if err != nil {
			return nil, &Error{
				Code:    e.invalidCode,
				Message: "arguments are not valid JSON: " + err.Error(),
				Details: map[string]any{"errors": []ArgumentProblem{{Message: err.Error()}}},
			}
		}
		if decoded != nil {
			v = decoded
		}
	}
	if err := validateValue(e.schema, v); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			r.log.Error("schema validation failed unexpectedly", zap.String("tool", e.desc.Name), zap.Error(err))
			return nil, errInternal
		}
		problems := argumentProblems(ve)
		msg := problemSummary(problems)
		if len(problems) > maxReportedProblems {
			problems = problems[:maxReportedProblems]
		}
		return nil, &Error{
			Code:    e.invalidCode,
			Message: msg,
			Details: map[string]any{"errors": problems},
		}
	}
	out, err := encodeCanonical(v)
	if err != nil {
		r.log.Error("re-encoding arguments failed", zap.String("tool", e.desc.Name), zap.Error(err))
		return nil, errInternal
	}
	return out, nil
}

// validateValue runs the validator under recover; it is library code fed
// with agent input, and a crash there must not take the host down.
func validateValue(s *jsonschema.Schema, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("validator panicked: %v", p)
		}
	}()
	return s.Validate(v)
}

// argumentProblems flattens a validation error tree into its leaves, which
// are the actionable messages, sorted for deterministic output.
func argumentProblems(ve *jsonschema.ValidationError) []ArgumentProblem {
	var out []ArgumentProblem
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, ArgumentProblem{Pointer: e.InstanceLocation, Keyword: e.KeywordLocation, Message: e.Message})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.SortFunc(out, func(a, b ArgumentProblem) int {
		return cmp.Or(cmp.Compare(a.Pointer, b.Pointer), cmp.Compare(a.Keyword, b.Keyword), cmp.Compare(a.Message, b.Message))
	})
	return slices.Compact(out)
}

// problemSummary turns the first problem into a one-line message that is
// useful to a model on its own.
func problemSummary(problems []ArgumentProblem) string {
	if len(problems) == 0 {
		return "arguments do not match the input schema"
	}
	p := problems[0]
	where := p.Pointer
	if where == "" {
		where = "(root)"
	}
	msg := fmt.Sprintf("arguments do not match the input schema: at %s: %s", where, p.Message)
	if n := len(problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}
