package webserver

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

const echoRaceChildEnv = "DSH_WEBSERVER_ECHO_RACE_CHILD"

// TestEchoAddWhileServingIsADataRace documents why the dispatcher exists:
// calling (*echo.Echo).Add on an instance that is serving requests is a
// data race, because echo's router tree is mutated without synchronisation
// while ServeHTTP walks it. The race is provoked in a child process (the
// same test binary) so that the expected race report does not fail this
// package; we assert the child's race detector fired.
func TestEchoAddWhileServingIsADataRace(t *testing.T) {
	if !raceEnabled {
		t.Skip("demonstration needs the race detector (go test -race)")
	}
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEchoRaceChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), echoRaceChildEnv+"=1")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "WARNING: DATA RACE") || !strings.Contains(string(out), "labstack/echo") {
		t.Fatalf("expected the race detector to flag echo's router; child output:\n%s", out)
	}
}

// TestEchoRaceChild is the child half of the demonstration; it does nothing
// unless started by TestEchoAddWhileServingIsADataRace.
func TestEchoRaceChild(t *testing.T) {
	if os.Getenv(echoRaceChildEnv) != "1" {
		t.Skip("helper process for TestEchoAddWhileServingIsADataRace")
	}
	e := echo.New()
	e.GET("/r0", func(c echo.Context) error { return c.NoContent(http.StatusOK) })

	// The server counts the requests it has finished. The adder only loads
	// the count, and a load orders nothing from the adder to the server, so
	// every request served after an add reads the router unordered with it.
	var finished atomic.Int64
	stop := make(chan struct{})
	served := make(chan struct{})
	go func() {
		defer close(served)
		for {
			select {
			case <-stop:
				return
			default:
			}
			e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/r0", nil))
			finished.Add(1)
		}
	}()
	// Adding routes while the goroutine above is serving: the racy pattern.
	// Each add also registers /r0 again, which writes the very node the
	// server reads on every request. The adds go on until the server has
	// finished requests after them, however late a loaded machine schedules
	// it: the detector needs the accesses unordered, not timed. The wall-time
	// cap only keeps a broken child from hanging the parent.
	begin := time.Now()
	base := finished.Load()
	for i := 1; finished.Load() < base+64 && time.Since(begin) < time.Minute; i++ {
		h := func(c echo.Context) error { return c.NoContent(http.StatusOK) }
		e.GET("/r"+strconv.Itoa(i), h)
		e.GET("/r0", h)
		runtime.Gosched()
	}
	close(stop)
	<-served
}
