package httpapi

import (
	"errors"
	"fmt"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

func TestContractKeepsCodedErrorsAndHidesOthers(t *testing.T) {
	returning := func(err error) echo.HandlerFunc { return func(echo.Context) error { return err } }
	conflict := fmt.Errorf("save: %w", sceneerr.New(sceneerr.RevisionConflict, "moved on").With("currentRevision", int64(2)))
	rej := connection.Unavailable()
	for _, err := range []error{nil, conflict, rej} {
		if got := contract(returning(err))(nil); got != err {
			t.Errorf("%v became %v", err, got)
		}
	}
	cause := errors.New("open /home/me/drawings: EIO")
	got := contract(returning(cause))(nil)
	var se *sceneerr.Error
	if !errors.As(got, &se) || se.Code != sceneerr.IOError || se.Message != "internal error" || se.Details != nil || !errors.Is(got, cause) {
		t.Fatalf("%#v", got)
	}
}
