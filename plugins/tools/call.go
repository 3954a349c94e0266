package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// Result is the outcome of a tool call in the shape the agent sees.
//
// On success JSON is the handler's value, with "ok": true added when the
// value is an object that has no "ok" member of its own. On failure it is
// {"ok":false,"error":{"code":...,"message":...,"details":...}}. JSON is
// always canonical (see [CanonicalJSON]) and is the only rendering a
// result has: a handler's value is encoded once, into JSON, and
// [Result.Value] decodes it for callers that want the document.
type Result struct {
	// OK is false for every failure. For a successful handler it is true,
	// unless the handler's object itself carries a boolean "ok", in which
	// case OK mirrors it so that OK and the JSON never disagree.
	OK   bool
	JSON []byte
	// Images are the pictures a handler returned with its value
	// (WithImages); none for a failure.
	Images []Image
}

// Value decodes JSON into map[string]any / []any / string / json.Number /
// bool / nil. It decodes on every call: transports send JSON as it is.
func (r Result) Value() any {
	v, err := decodeJSON(r.JSON)
	if err != nil {
		return nil // unreachable: JSON is always a valid document
	}
	return v
}

// Call checks args against the registry's and the tool's limits, validates
// them against the tool's schema and runs its handler.
//
// Arguments are validated on every call, never cached: blank (nil, empty
// or whitespace) and JSON null arguments are treated as {}. Failures are
// reported in the Result, never as a Go error or panic:
//
//   - unknown name: "unknown_tool"
//   - arguments longer than [Registry.MaxArgumentBytes]: "too_large" with
//     details {"limit":"maxArgumentBytes","max","actual"}; over one of the
//     tool's [ArgumentLimit]s: that limit's code and details. Both are
//     checked on the raw bytes, before anything is decoded.
//   - arguments that are not JSON or fail the schema: the tool's
//     InvalidArgumentsCode, with details {"errors":[{"pointer","keyword",
//     "message"}]} where pointer is the JSON pointer of the offending value
//   - handler returns an *Error (possibly wrapped): its code, message and
//     details
//   - handler returns another error, panics, or returns an unmarshalable
//     value: "internal_error" with a generic message; the cause is logged
//
// Every call is counted (Instrument), logged on one access line and
// traced (Trace) as access.go says.
func (r *Registry) Call(ctx context.Context, name string, args json.RawMessage) Result {
	start := time.Now()
	ctx, span := r.startSpan(ctx, name)
	res, outcome := r.call(ctx, name, args)
	d := time.Since(start)
	if m := r.metrics.Load(); m != nil {
		m.observe(name, outcome, d)
	}
	r.logCall(ctx, name, args, outcome, d)
	endSpan(span, outcome)
	return res
}

// call is Call, also saying how it ended: OutcomeOK, the error's code, or
// OutcomeNotOK for a handler's own object with "ok": false.
func (r *Registry) call(ctx context.Context, name string, args json.RawMessage) (Result, string) {
	e, ok := r.get(name)
	if !ok {
		return r.failure(ctx, name, Errorf(CodeUnknownTool, "unknown tool %q", name)), CodeUnknownTool
	}
	if terr := r.precheck(e, args); terr != nil {
		return r.failure(ctx, name, terr), terr.Code
	}
	if e.refuse != nil {
		if err := r.refuseEarly(ctx, e, args); err != nil {
			te := r.toolError(e, err)
			return r.failure(ctx, name, te), te.Code
		}
	}
	canonArgs, terr := r.validateArgs(e, args)
	if terr != nil {
		return r.failure(ctx, name, terr), terr.Code
	}
	v, err := r.invoke(ctx, e, canonArgs)
	if err != nil {
		te := r.toolError(e, err)
		return r.failure(ctx, name, te), te.Code
	}
	res := r.success(ctx, name, v)
	if !res.OK {
		return res, OutcomeNotOK
	}
	return res, OutcomeOK
}

// invoke runs the handler, turning a panic into an error so that one bad
// plugin cannot take the host down.
func (r *Registry) invoke(ctx context.Context, e *entry, args json.RawMessage) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("tool handler panicked",
				zap.String("tool", e.desc.Name), zap.Any("panic", p), zap.StackSkip("stack", 2))
			v, err = nil, errInternal
		}
	}()
	return e.handler(context.WithValue(ctx, toolNameKey{}, e.desc.Name), args)
}

// refuseEarly runs the tool's Refuse under recover, with the context its
// handler would have: a panic there is a bug in it, so the call goes on
// to the schema and the handler, which decide it as before.
func (r *Registry) refuseEarly(ctx context.Context, e *entry, args json.RawMessage) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("tool refusal panicked",
				zap.String("tool", e.desc.Name), zap.Any("panic", p), zap.StackSkip("stack", 2))
			err = nil
		}
	}()
	return e.refuse(context.WithValue(ctx, toolNameKey{}, e.desc.Name), args)
}

// errInternal is the generic error shown to the agent for handler bugs.
var errInternal = Errorf(CodeInternal, "internal error")

// toolError maps a handler error to what the agent may see. A [Typed]
// handler's decode failure is the tool's invalid-arguments error.
func (r *Registry) toolError(e *entry, err error) *Error {
	name := e.desc.Name
	var ae *argumentsError
	if errors.As(err, &ae) {
		r.log.Warn("tool arguments passed the schema but do not decode into the handler's input; schema and type disagree",
			zap.String("tool", name), zap.String("pointer", ae.problem.Pointer), zap.String("problem", ae.problem.Message))
		return ae.invalidArguments(e.invalidCode)
	}
	// A tool error, or any error that carries the host's error contract
	// (code, message, details: apierr.Coded), passes through as it is.
	te, ok := FromError(err)
	if !ok {
		r.log.Error("tool handler failed", zap.String("tool", name), zap.Error(err))
		return errInternal
	}
	if te.Code == "" {
		r.log.Warn("tool error without code", zap.String("tool", name), zap.Error(err))
		return &Error{Code: CodeInternal, Message: te.Message, Details: te.Details, Retryable: te.Retryable, RetryAfterSec: te.RetryAfterSec}
	}
	return te
}

// success renders a handler's value: encoded by encoding/json, then made
// canonical, with "ok" added, in one pass over those bytes (see
// canonicalResult), never decoded into a tree.
func (r *Registry) success(ctx context.Context, name string, v any) Result {
	var images []Image
	if wi, ok := v.(WithImages); ok {
		v, images = wi.Value, wi.Images
	}
	raw, err := marshalNoEscape(v)
	if err != nil {
		r.log.Error("tool result is not JSON-marshalable", zap.String("tool", name), zap.Error(err))
		return r.failure(ctx, name, errInternal)
	}
	out, ok, err := canonicalResult(raw)
	if err != nil {
		r.log.Error("tool result is not valid JSON", zap.String("tool", name), zap.Error(err))
		return r.failure(ctx, name, errInternal)
	}
	if !ok {
		images = nil
	}
	return Result{OK: ok, JSON: out, Images: images}
}

// failure renders a tool error. It cannot fail: details that do not
// marshal are dropped (and logged) rather than losing the error itself.
func (r *Registry) failure(ctx context.Context, name string, te *Error) Result {
	errObj := map[string]any{"code": te.Code, "message": te.Message, "retryable": te.Retryable}
	if te.RetryAfterSec > 0 {
		errObj["retryAfterSec"] = json.Number(strconv.Itoa(te.RetryAfterSec))
	}
	if te.Details != nil {
		details, _, err := canonicalize(te.Details)
		switch {
		case err != nil:
			r.log.Error("tool error details are not JSON-marshalable", zap.String("tool", name), zap.Error(err))
		case details != nil:
			errObj["details"] = details
		}
	}
	if id := apierr.RequestID(ctx); id != "" {
		errObj["details"] = withRequestID(errObj["details"], id)
	}
	v := map[string]any{"ok": false, "error": errObj}
	out, err := encodeCanonical(v)
	if err != nil {
		// Unreachable: v holds only generic JSON values.
		panic(fmt.Sprintf("tools: encoding failure result: %v", err))
	}
	return Result{OK: false, JSON: out}
}
