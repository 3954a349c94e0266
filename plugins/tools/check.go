package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Schema is an input schema compiled on its own, to check arguments
// outside a call exactly as [Registry.Call] checks a call's (the same
// validation, problems and message): a tool that runs steps naming other
// tools checks each step with the schema of the tool it names.
type Schema struct {
	r *Registry
	e *entry
}

// CompileSchema compiles schema under the rules [Registry.Register]
// applies to a tool's InputSchema; name names it in errors and
// invalidCode is the code of a refusal (see Tool.InvalidArgumentsCode).
func CompileSchema(name string, schema json.RawMessage, invalidCode string) (*Schema, error) {
	cs, err := compileSchema(name, schema)
	if err != nil {
		return nil, fmt.Errorf("tools: schema %q: %w", name, err)
	}
	code := strings.TrimSpace(invalidCode)
	if code == "" {
		code = CodeInvalidArguments
	}
	return &Schema{r: NewRegistry(nil), e: &entry{desc: Descriptor{Name: name}, schema: cs.schema, fast: cs.fast, invalidCode: code}}, nil
}

// Check validates args against s. A refusal is the error a call with
// args would get, its pointers (in details and message) under at: where
// args are in the caller's arguments.
func (s *Schema) Check(args json.RawMessage, at string) *Error {
	_, err := s.r.validateArgsAt(s.e, args, at)
	return err
}
