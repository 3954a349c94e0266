package build

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"sync"

	"github.com/dshgo/dsh/internal/jsonpointer"
	"github.com/dshgo/dsh/internal/parallel"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// maxInputBytes bounds one element input. A path of maxPoints points with
// long numbers stays well below it.
const maxInputBytes = 4 << 20

// branchValidators are the compiled schema branches, by element type.
// They are compiled from the same generated schema that InputSchema
// returns, so the schema and the builder cannot disagree.
var branchValidators = sync.OnceValue(func() map[string]*jsonschema.Schema {
	out := make(map[string]*jsonschema.Schema, len(elementTypes))
	for _, t := range elementTypes {
		doc, err := ojson.Marshal(branchSchema(t))
		if err != nil {
			panic("build: schema branch " + t + " does not encode: " + err.Error())
		}
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		c.LoadURL = func(string) (io.ReadCloser, error) { return nil, errors.New("no remote schemas") }
		url := "mem://excalidraw-build/" + t + ".json"
		if err := c.AddResource(url, bytes.NewReader(doc)); err != nil {
			panic("build: schema branch " + t + ": " + err.Error())
		}
		out[t] = c.MustCompile(url)
	}
	return out
})

// decodeInput parses and validates input number index against its type's
// schema branch and returns it typed.
// decodeInputs is decodeInput of every input, on every processor for
// many inputs (each is independent). Once an input fails, inputs after it
// are not decoded: Build reports the first failure, as a loop would.
func decodeInputs(inputs []json.RawMessage) ([]*input, []error) {
	out, errs := make([]*input, len(inputs)), make([]error, len(inputs))
	parallel.For(len(inputs), parallelInputs, func(i int) bool {
		out[i], errs[i] = decodeInput(i, inputs[i])
		return errs[i] == nil
	})
	return out, errs
}

// parallelInputs is how many inputs make another decoding goroutine
// worth starting.
const parallelInputs = 32

func decodeInput(index int, raw json.RawMessage) (*input, error) {
	doc, err := ojson.Decode(raw, ojson.Limits{MaxBytes: maxInputBytes, MaxDepth: 8})
	if err != nil {
		return nil, decodeError(index, err)
	}
	obj, ok := doc.(*ojson.Object)
	if !ok {
		return nil, badInput(index, "", "an element input must be a JSON object")
	}
	t, err := inputType(index, obj)
	if err != nil {
		return nil, err
	}
	if err := checkKnownKeys(index, obj, t); err != nil {
		return nil, err
	}
	// What the prover shows the schema accepts needs no validator; the
	// rest, refused or not, is the validator's to judge (and explain).
	if !provers()[t].accepts(obj) {
		if err := branchValidators()[t].Validate(toGeneric(obj)); err != nil {
			return nil, schemaError(index, err)
		}
	}
	if in, ok := inputOf(obj); ok {
		return in, nil
	}
	in := &input{}
	if err := json.Unmarshal(raw, in); err != nil {
		// The schema accepted it, so this is a bug, not bad input.
		return nil, badInput(index, "", "cannot read input: %v", err)
	}
	return in, nil
}

// decodeError reports a JSON syntax or safety problem.
func decodeError(index int, err error) error {
	var oe *ojson.Error
	if errors.As(err, &oe) {
		msg := oe.Code.Error()
		if oe.Detail != "" {
			msg += ": " + oe.Detail
		}
		return badInput(index, oe.Pointer, "%s (byte %d)", msg, oe.Offset)
	}
	return badInput(index, "", "%v", err)
}

// inputType reads and checks "type": types Excalidraw has but agents
// cannot create, and unknown types, are unsupported_element.
func inputType(index int, obj *ojson.Object) (string, error) {
	v, ok := obj.Get("type")
	if !ok {
		return "", badInput(index, "/type", "missing \"type\"; one of %v", elementTypes)
	}
	t, ok := v.(string)
	if !ok {
		return "", badInput(index, "/type", "\"type\" must be a string")
	}
	if slices.Contains(elementTypes, t) {
		return t, nil
	}
	if knownButNotCreatable[t] {
		return "", inputError(sceneerr.UnsupportedElement, index, "/type",
			"elements of type %q cannot be created here; creatable types: %v", t, elementTypes)
	}
	return "", inputError(sceneerr.UnsupportedElement, index, "/type",
		"unknown element type %q; creatable types: %v", t, elementTypes)
}

// checkKnownKeys rejects the first member type t does not accept, naming
// it exactly (the schema validator would only say "additional property").
func checkKnownKeys(index int, obj *ojson.Object, t string) error {
	allowed := fieldsFor(t)
	for _, k := range obj.Keys() {
		if !slices.Contains(allowed, k) {
			return badInput(index, pointerTo(k), "unknown field %q for type %q; allowed: %v", k, t, allowed)
		}
	}
	return nil
}

// schemaError turns the validator's error tree into one message located at
// the deepest failing value.
func schemaError(index int, err error) error {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return badInput(index, "", "%v", err)
	}
	leaf := ve
	for len(leaf.Causes) > 0 {
		leaf = leaf.Causes[0]
	}
	return badInput(index, leaf.InstanceLocation, "%s", leaf.Message)
}

// pointerTo is the JSON pointer of a top-level member.
func pointerTo(key string) string { return "/" + jsonpointer.Escape(key) }

// toGeneric converts ojson values to the maps and slices the schema
// validator walks. Numbers stay json.Number, so nothing is rounded.
func toGeneric(v any) any {
	switch t := v.(type) {
	case *ojson.Object:
		m := make(map[string]any, t.Len())
		for _, k := range t.Keys() {
			val, _ := t.Get(k)
			m[k] = toGeneric(val)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = toGeneric(e)
		}
		return out
	}
	return v
}
