package loader

import (
	"errors"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// validate checks v against the compiled schema and reports every failure as
// a Problem whose pointer is prefix (where v sits in the file) plus the
// failing value's location inside v, so the operator is pointed at the value
// they wrote rather than at a keyword in somebody else's schema.
func validate(cs *compiledSchema, v any, entryID, prefix string) []Problem {
	err := cs.validator.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{EntryID: entryID, Pointer: prefix, Message: err.Error()}}
	}
	type key struct{ ptr, msg string }
	seen := make(map[key]bool)
	var probs []Problem
	for _, leaf := range leaves(ve) {
		k := key{prefix + fromSchemaLocation(leaf.InstanceLocation), leaf.Message}
		if seen[k] {
			continue
		}
		seen[k] = true
		probs = append(probs, Problem{EntryID: entryID, Pointer: k.ptr, Message: k.msg})
	}
	return probs
}

// leaves returns the innermost causes: the outer errors only say "doesn't
// validate with <schema url>", which tells the operator nothing.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}
