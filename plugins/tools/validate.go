package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

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
	// Keyword is the JSON pointer of the failing schema keyword (for a
	// wrong or missing discriminator, the oneOf/anyOf it selects within).
	Keyword string `json:"keyword"`
	// Message says what is wrong in plain words, e.g. "expected number,
	// got string" or `must be one of "add", "update", "delete"`.
	Message string `json:"message"`
}

// validateArgs decodes and validates raw arguments and returns them
// re-encoded canonically, so the handler receives exactly the value that
// was validated (no duplicate keys, no whitespace tricks).
func (r *Registry) validateArgs(e *entry, raw json.RawMessage) (json.RawMessage, *Error) {
	return r.validateArgsAt(e, raw, "")
}

// validateArgsAt is validateArgs for arguments found at the JSON pointer
// at of a caller's: every pointer of a refusal starts with at.
func (r *Registry) validateArgsAt(e *entry, raw json.RawMessage, at string) (json.RawMessage, *Error) {
	if e.noArgs != nil && isNoArgs(raw) {
		return append(json.RawMessage(nil), e.noArgs...), nil // the handler owns its copy
	}
	var v any = map[string]any{}
	if !isBlankJSON(raw) {
		decoded, err := decodeJSON(raw)
		if err != nil {
			return nil, &Error{
				Code:    e.invalidCode,
				Message: "arguments are not valid JSON: " + err.Error(),
				Details: map[string]any{"errors": []ArgumentProblem{{Pointer: at, Message: err.Error()}}},
			}
		}
		if decoded != nil {
			v = decoded
		}
	}
	if err := r.validateFast(e, v); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			r.log.Error("schema validation failed unexpectedly", zap.String("tool", e.desc.Name), zap.Error(err))
			return nil, errInternal
		}
		problems, omitted := argumentProblems(e.schema, v, ve)
		for i := range problems {
			problems[i].Pointer = at + problems[i].Pointer
		}
		msg := problemSummary(problems, len(problems)+omitted)
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

// isNoArgs says whether raw gives no arguments: blank, or an empty object.
func isNoArgs(raw []byte) bool {
	t := bytes.Trim(raw, " \t\r\n")
	if len(t) == 0 {
		return true
	}
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return false
	}
	return isBlankJSON(t[1 : len(t)-1])
}

// validateFast validates v against e's schema, through its fast
// compilation when it has one (see compileFast). The fast compilation
// accepts exactly what the published one does; when it refuses, v is
// validated again against the published compilation, whose error tree
// the explainer reads. Should the two ever disagree, the published
// schema, the contract, decides, and the disagreement is logged.
func (r *Registry) validateFast(e *entry, v any) error {
	if e.fast == nil {
		return validateValue(e.schema, v)
	}
	ferr := validateValue(e.fast, v)
	if ferr == nil {
		return nil
	}
	err := validateValue(e.schema, v)
	if err == nil {
		r.log.Error("dispatched validation refused arguments the schema accepts",
			zap.String("tool", e.desc.Name), zap.Error(ferr))
	}
	return err
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

// argumentProblems explains why args failed schema: the problems of the
// branches the arguments meant (see explainer), sorted, and the number
// of further problems the per-union cap left out.
func argumentProblems(schema *jsonschema.Schema, args any, ve *jsonschema.ValidationError) ([]ArgumentProblem, int) {
	x := &explainer{root: schema, args: args}
	return x.explain(ve)
}

// maxSummaryBytes bounds the error message; details.errors has the rest.
const maxSummaryBytes = 290

// summaryHead opens every invalid-arguments message.
const summaryHead = "arguments do not match the input schema"

// problemSummary turns the first one or two problems into the error
// message, one line each ("at <pointer>: <what is wrong>"), followed by
// how many of total problems it does not show. Long pointers or messages
// are clipped so the whole stays under maxSummaryBytes.
func problemSummary(problems []ArgumentProblem, total int) string {
	return problemSummaryWith(summaryHead, problems, total)
}

// problemSummaryWith is problemSummary opening with head instead.
func problemSummaryWith(head string, problems []ArgumentProblem, total int) string {
	if len(problems) == 0 {
		return head
	}
	shown := problems[:min(len(problems), 2)]
	more := ""
	if n := max(total, len(problems)) - len(shown); n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	const first, second = " at ", "\nand at "
	items := make([]string, len(shown))
	for i, p := range shown {
		where := p.Pointer
		if where == "" {
			where = "(root)"
		}
		items[i] = where + ": " + p.Message
	}
	budget := maxSummaryBytes - len(head) - len(more) - len(first)
	if len(items) == 1 {
		return head + first + clip(items[0], budget) + more
	}
	budget -= len(second)
	// The first line gets what the second does not need of an even share.
	a := clip(items[0], budget-min(len(items[1]), budget/2))
	b := clip(items[1], budget-len(a))
	return head + first + a + second + b + more
}
