package webserver

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
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

	stop := make(chan struct{})
	served := make(chan struct{})
	started := make(chan struct{})
	go func() {
		defer close(served)
		for n := 0; ; n++ {
			if n == 1 {
				close(started)
			}
			select {
			case <-stop:
				return
			default:
			}
			e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/r0", nil))
		}
	}()
	// Adding routes while the goroutine above is serving: the racy pattern.
	// The adds start once the server is running and go on for a while of
	// wall time, so a loaded machine that schedules the server late still
	// lets the two overlap (the detector needs them unordered, not timed).
	<-started
	begin := time.Now()
	for i := 1; time.Since(begin) < 300*time.Millisecond; i++ {
		e.GET("/r"+strconv.Itoa(i), func(c echo.Context) error { return c.NoContent(http.StatusOK) })
		runtime.Gosched()
	}
	close(stop)
	<-served
}
