package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// decodeBody reads exactly one JSON object into v. Unknown fields are
// refused: the browser half ships with the host, so a field the host does
// not know is a bug worth surfacing, not something to drop silently. The
// web server already bounds the body; hitting that bound is too_large.
func decodeBody(c echo.Context, v any) error {
	data, err := io.ReadAll(c.Request().Body)
	if err != nil {
		var big *http.MaxBytesError
		if errors.As(err, &big) {
			return sceneerr.New(sceneerr.TooLarge, "request body exceeds %d bytes", big.Limit).With("limit", big.Limit)
		}
		return sceneerr.New(sceneerr.IOError, "request body could not be read")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return badRequest("", "request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("", "request body must hold a single JSON object")
	}
	return nil
}

// decodeError turns a decoder failure into invalid_operation, with the
// JSON pointer of a mistyped field when the decoder knows it.
func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		ptr := ""
		if te.Field != "" {
			ptr = "/" + te.Field
		}
		return badRequest(ptr, "%s must be %s, not %s", fieldName(te.Field), te.Type.String(), te.Value)
	}
	return badRequest("", "request body is not valid JSON: %s", err.Error())
}

func fieldName(f string) string {
	if f == "" {
		return "request body"
	}
	return fmt.Sprintf("%q", f)
}

// nameParam is the :name path parameter, percent-decoded. Echo routes on
// the escaped path and does not decode parameters, so "a%20b" would
// otherwise reach the store literally; an undecodable name is
// invalid_name, like any other bad name.
func nameParam(c echo.Context) (string, error) {
	n, err := url.PathUnescape(c.Param("name"))
	if err != nil {
		return "", sceneerr.New(sceneerr.InvalidName, "scene name is not a valid path segment")
	}
	return n, nil
}
