package tools

import (
	"bytes"
	"context"
	"encoding"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/internal/jsonpointer"
)

// Typed adapts a function of typed arguments to a [Handler], in the
// manner of the MCP SDK's typed tool handlers (mcp.ToolHandlerFor): the
// arguments, already validated against the tool's InputSchema and
// re-encoded canonically, are decoded into a fresh In and fn gets that
// value, with ctx passed through untouched. Out is what fn returns on
// success, rendered like any handler's value.
//
// Unlike the SDK, Typed does not derive a schema from In: the tool's
// InputSchema stays the contract, checked first, and In only says how a
// handler reads what passed it. Decoding is encoding/json's, made strict:
// a member In has no field for is an error (schemas are closed with
// "additionalProperties": false, so In must name every property its
// schema allows), as is a value of the wrong type, and numbers in
// interface values are json.Number (exactly what was sent). Names match
// fields as encoding/json matches them (its tags, and another case when
// no field has the exact name); the schema has refused every name it
// does not declare. Since the
// schema has already passed the arguments, a decode failure means In and
// the schema disagree; the call then fails with the tool's
// InvalidArgumentsCode and details {"errors":[{"pointer","keyword",
// "message"}]} pointing at the value In could not take (keyword is ""),
// and the registry logs the mismatch.
//
// A nil fn gives a nil Handler, which [Registry.Register] refuses.
func Typed[In, Out any](fn func(ctx context.Context, in In) (Out, error)) Handler {
	if fn == nil {
		return nil
	}
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		var in In
		if err := decodeInto(args, &in); err != nil {
			return nil, explainDecode(reflect.TypeFor[In](), args, err)
		}
		out, err := fn(ctx, in)
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

// decodeInto decodes one JSON document into v strictly (see [Typed]).
// Blank arguments are {}, as the registry passes them.
func decodeInto(data []byte, v any) error {
	if isBlankJSON(data) {
		data = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errTrailingData
	}
	return nil
}

// argumentsError is a [Typed] handler's decode failure. [Registry.Call]
// renders it as the tool's invalid-arguments error.
type argumentsError struct {
	problem ArgumentProblem
}

// decodeHead opens the message of a decode failure.
const decodeHead = "arguments do not decode into the tool's input"

func (e *argumentsError) Error() string {
	return problemSummaryWith(decodeHead, []ArgumentProblem{e.problem}, 1)
}

// invalidArguments is e as the tool error the agent sees.
func (e *argumentsError) invalidArguments(code string) *Error {
	return &Error{Code: code, Message: e.Error(), Details: map[string]any{"errors": []ArgumentProblem{e.problem}}}
}

// explainDecode finds the value of args that t could not take (err is
// what decoding the whole said) and returns the error naming it.
//
// encoding/json says where only vaguely (a dotted path without array
// indices, or for an unknown member nothing at all), so the arguments are
// walked alongside t, trying each member alone, down to the innermost
// one that fails by itself. Failures are rare (In and the schema
// disagree), so their cost does not matter.
func explainDecode(t reflect.Type, args json.RawMessage, err error) error {
	if isBlankJSON(args) {
		args = json.RawMessage("{}")
	}
	v, derr := decodeJSON(args)
	if derr != nil {
		return &argumentsError{ArgumentProblem{Message: derr.Error()}}
	}
	if p, ok := locateDecodeProblem(t, v, ""); ok {
		return &argumentsError{p}
	}
	return &argumentsError{ArgumentProblem{Message: decodeMessage(err)}}
}

// locateDecodeProblem reports the innermost value below v (at pointer at)
// that does not decode into its Go type, starting from t; ok is false
// when v decodes into t.
func locateDecodeProblem(t reflect.Type, v any, at string) (ArgumentProblem, bool) {
	err := probe(t, v)
	if err == nil {
		return ArgumentProblem{}, false
	}
	here := ArgumentProblem{Pointer: at, Message: decodeMessage(err)}
	for !decodesItself(t) && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if decodesItself(t) {
		return here, true
	}
	switch x := v.(type) {
	case map[string]any:
		if t.Kind() != reflect.Struct && t.Kind() != reflect.Map {
			break
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			// The member alone, in an object of t: that way a struct
			// field's tag options (",string") decide as they do in the
			// whole.
			err := probe(t, map[string]any{k: x[k]})
			if err == nil {
				continue
			}
			et, known := memberType(t, k)
			if !known && unknownField(err) == k {
				return ArgumentProblem{Pointer: at, Message: "unknown property " + renderValue(k)}, true
			}
			member := at + "/" + jsonpointer.Escape(k)
			if known {
				if p, ok := locateDecodeProblem(et, x[k], member); ok {
					return p, true
				}
			}
			return ArgumentProblem{Pointer: member, Message: decodeMessage(err)}, true
		}
	case []any:
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			break
		}
		for i, item := range x {
			if p, ok := locateDecodeProblem(t.Elem(), item, at+"/"+strconv.Itoa(i)); ok {
				return p, true
			}
		}
	}
	return here, true
}

// probe decodes v, a generic JSON value, into a new value of type t.
func probe(t reflect.Type, v any) error {
	raw, err := encodeCanonical(v)
	if err != nil {
		return err
	}
	return decodeInto(raw, reflect.New(t).Interface())
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// decodesItself reports whether t (or *t) decodes JSON with a method of
// its own, or is an interface; encoding/json does not look inside those,
// and neither does locateDecodeProblem.
func decodesItself(t reflect.Type) bool {
	if t.Kind() == reflect.Interface {
		return true
	}
	pt := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshalerType) || pt.Implements(jsonUnmarshalerType) ||
		t.Implements(textUnmarshalerType) || pt.Implements(textUnmarshalerType)
}

// memberType is the Go type the member name of an object decodes into
// when the object decodes into t (a struct or a map).
func memberType(t reflect.Type, name string) (reflect.Type, bool) {
	if t.Kind() == reflect.Map {
		return t.Elem(), true
	}
	fields := structFields(t)
	i := slices.IndexFunc(fields, func(f jsonField) bool { return f.name == name })
	if i < 0 {
		// encoding/json prefers an exact match but takes one that
		// differs in case too.
		i = slices.IndexFunc(fields, func(f jsonField) bool { return strings.EqualFold(f.name, name) })
	}
	if i < 0 || fields[i].quoted {
		// The value of a ",string" field is JSON in a string: not walked.
		return nil, false
	}
	return fields[i].typ, true
}

// jsonField is a struct field as encoding/json sees it.
type jsonField struct {
	name   string
	typ    reflect.Type
	depth  int
	tagged bool
	quoted bool // the ",string" option
}

// structFields lists the fields encoding/json decodes into for struct t:
// exported fields by their JSON names, those of embedded structs
// promoted, and where a name is taken more than once the shallowest
// field (or the only tagged one among the shallowest) wins, as in
// encoding/json; a name it cannot settle is dropped.
func structFields(t reflect.Type) []jsonField {
	var all []jsonField
	level := []reflect.Type{t}
	seen := map[reflect.Type]bool{}
	for depth := 0; len(level) > 0; depth++ {
		var next []reflect.Type
		for _, st := range level {
			if seen[st] {
				continue
			}
			seen[st] = true
			for i := range st.NumField() {
				f, embedded, ok := fieldOf(st.Field(i), depth)
				switch {
				case !ok:
				case embedded != nil:
					next = append(next, embedded)
				default:
					all = append(all, f)
				}
			}
		}
		level = next
	}
	byName := map[string][]jsonField{}
	var names []string
	for _, f := range all {
		if byName[f.name] == nil {
			names = append(names, f.name)
		}
		byName[f.name] = append(byName[f.name], f)
	}
	out := make([]jsonField, 0, len(names))
	for _, n := range names {
		if f, ok := dominantField(byName[n]); ok {
			out = append(out, f)
		}
	}
	return out
}

// fieldOf is what encoding/json makes of struct field sf at depth: a
// field (ok), an untagged embedded struct whose fields are promoted
// (embedded), or nothing (ok false).
func fieldOf(sf reflect.StructField, depth int) (f jsonField, embedded reflect.Type, ok bool) {
	ft := sf.Type
	if ft.Name() == "" && ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if sf.Anonymous {
		if !sf.IsExported() && ft.Kind() != reflect.Struct {
			return f, nil, false
		}
	} else if !sf.IsExported() {
		return f, nil, false
	}
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return f, nil, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
		return f, ft, true
	}
	if !sf.IsExported() {
		return f, nil, false
	}
	f = jsonField{name: name, typ: sf.Type, depth: depth, tagged: name != "", quoted: slices.Contains(strings.Split(opts, ","), "string")}
	if name == "" {
		f.name = sf.Name
	}
	return f, nil, true
}

// dominantField settles fields that share a name (see structFields).
func dominantField(fs []jsonField) (jsonField, bool) {
	shallowest := slices.MinFunc(fs, func(a, b jsonField) int { return a.depth - b.depth }).depth
	var top, tagged []jsonField
	for _, f := range fs {
		if f.depth == shallowest {
			top = append(top, f)
			if f.tagged {
				tagged = append(tagged, f)
			}
		}
	}
	switch {
	case len(top) == 1:
		return top[0], true
	case len(tagged) == 1:
		return tagged[0], true
	}
	return jsonField{}, false
}

// unknownField is the member name of encoding/json's unknown-field error,
// or "".
func unknownField(err error) string {
	const prefix = "json: unknown field "
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return ""
	}
	name, uerr := strconv.Unquote(msg[len(prefix):])
	if uerr != nil {
		return ""
	}
	return name
}

// decodeMessage says in the words of the schema explainer what a decode
// error means: "expected integer, got number 1.5".
func decodeMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		got := te.Value
		if got == "bool" {
			got = "boolean"
		}
		return "expected " + goJSONKind(te.Type) + ", got " + got
	}
	if name := unknownField(err); name != "" {
		return "unknown property " + renderValue(name)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// goJSONKind names the JSON values a Go type decodes from.
func goJSONKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "integer (" + t.Kind().String() + ")"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "base64 string"
		}
		return "array"
	case reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return t.String()
}
