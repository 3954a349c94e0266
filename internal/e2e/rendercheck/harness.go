package rendercheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/dshgo/dsh/internal/e2e/restorecheck"
	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// Options are the export settings of one render.
type Options struct {
	// Scale is Excalidraw's exportScale: the PNG has trunc(size×Scale)
	// pixels a side and the SVG's width and height attributes are
	// size×Scale. 0 means 1.
	Scale float64
	// Background is exportBackground: the scene's viewBackgroundColor
	// behind the drawing; without it the PNG is transparent there.
	Background bool
	// Dark is exportWithDarkMode.
	Dark bool
	// Padding is exportPadding in scene units, used as given (0 is none;
	// Excalidraw's default is DefaultPadding).
	Padding int
	// Runs is how many timed exports of each kind follow the one warm-up;
	// the times reported are their median. 0 means 1.
	Runs int
	// Timeout bounds the whole render (all runs); 0 means DefaultTimeout.
	Timeout time.Duration
	// Frame is the id of a frame of the scene to export alone, as
	// Excalidraw's exportingFrame: the export is the frame's bounds (no
	// padding), with what overlaps it clipped to it, and no outline or
	// name. Empty: the whole scene.
	Frame string
	// MaxPixels caps the PNG's area; 0 means DefaultMaxPixels, what
	// Chromium can do. Above it, or with a side over MaxSide, Render gives
	// the SVG and an error wrapping ErrCanvasTooBig. Tests that need not
	// see the largest drawings set it lower: decoding a PNG takes 4 bytes
	// a pixel.
	MaxPixels int
}

// Defaults.
const (
	DefaultPadding = 10 // Excalidraw's DEFAULT_EXPORT_PADDING
	DefaultTimeout = 3 * time.Minute
	// DefaultMaxPixels is the largest canvas Chromium allocates, 2^28 px
	// (16384×16384, a gigabyte of RGBA; about 4 s to draw and encode).
	// Past it, or past MaxSide, Chromium's canvas gives no PNG and
	// Excalidraw's exportToBlob only says "couldn't export to blob", so the
	// harness reports ErrCanvasTooBig with the size instead.
	DefaultMaxPixels = 1 << 28
	// MaxSide is the longest canvas side Chromium allocates.
	MaxSide = 65535
)

// DefaultOptions are Excalidraw's export dialog's defaults: scale 1,
// background on, light, padding 10, three timed runs.
var DefaultOptions = Options{Scale: 1, Background: true, Padding: DefaultPadding, Runs: 3}

// ErrCanvasTooBig is wrapped by Render's error when the PNG would exceed
// Options.MaxPixels or MaxSide: the Output then has the SVG and the size
// the PNG would have had, and no PNG.
var ErrCanvasTooBig = errors.New("canvas too big to export")

// Output is one scene as Excalidraw exports it.
type Output struct {
	Name string
	PNG  []byte // what exportToBlob gives (image/png); nil with ErrCanvasTooBig
	SVG  string // exportToSvg's element, serialized (outerHTML); fonts inlined as Excalidraw does
	// SVGTime and PNGTime are the medians of the timed runs, measured in
	// the page with performance.now() around exportToSvg and exportToBlob
	// (which draws the canvas and encodes the PNG).
	SVGTime, PNGTime time.Duration
	// Width and Height are the PNG's size in pixels: trunc(ExportWidth×
	// Scale) and trunc(ExportHeight×Scale).
	Width, Height int
	// ExportWidth and ExportHeight are Excalidraw's unscaled export size:
	// the elements' bounds plus twice the padding, in scene units.
	ExportWidth, ExportHeight float64
	// Fonts maps each font family the scene's text uses (Excalidraw's
	// name: "Excalifont", "Virgil", …) to whether the page had a loaded
	// face of it after the render. Excalidraw loads them itself before it
	// draws; a family it does not ship (e.g. "Helvetica") stays false and
	// is drawn with the system's font.
	Fonts map[string]bool
	// Console has the page's console errors and warnings and uncaught
	// exceptions during the render.
	Console []string
}

// Harness is one headless Chromium with a page that has Excalidraw loaded,
// and the loopback server that serves it; Render renders scenes one at a
// time (so timings are not disturbed by each other).
type Harness struct {
	srv     *httptest.Server
	cancel  func() // closes the browser
	browser context.Context

	mu        sync.Mutex // one render at a time
	tab       context.Context
	cancelTab context.CancelFunc
	seq       int

	smu     sync.Mutex // server state
	scenes  map[string][]byte
	results map[string]map[string][]byte
	missed  []string // requests the server could not answer

	cmu     sync.Mutex
	console []string
}

var shared struct {
	mu   sync.Mutex
	h    *Harness
	refs int  // tests using h
	keep bool // Main runs the tests: h lives until they end
}

// Start returns the test process's harness, starting Chromium and the
// server the first time. Tests running at the same time share it, and it
// closes when the last of them ends (t.Cleanup) — unless the package's
// TestMain runs its tests with Main, which keeps one harness for all of
// them (Chromium and the page take a second or two to start).
//
// Without Chromium or the pinned Node packages the test skips, or fails
// under testenv.Strict (make test, CI).
func Start(t testing.TB) *Harness {
	t.Helper()
	missing, err := checkPackages()
	if err != nil {
		t.Fatal(err)
	}
	if missing != "" {
		testenv.Missing(t, missing+"; install with: bash "+filepath.Join(restorecheck.Dir(), "setup.sh")+" (npm ci), or run make node-deps")
	}
	exe := testenv.Chromium(t)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.h == nil {
		h, err := start(exe)
		if err != nil {
			t.Fatalf("rendercheck: %v", err)
		}
		shared.h = h
	}
	shared.refs++
	h := shared.h
	t.Cleanup(func() {
		shared.mu.Lock()
		defer shared.mu.Unlock()
		if shared.refs--; shared.refs == 0 && !shared.keep {
			shared.h = nil
			h.close()
		}
	})
	return h
}

// Main runs a package's tests with one harness for all of them, closed
// when they end. Use it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(rendercheck.Main(m)) }
//
// A TestMain that checks for leaked goroutines (goleak) checks after Main
// returns.
func Main(m *testing.M) int {
	shared.mu.Lock()
	shared.keep = true
	shared.mu.Unlock()
	code := m.Run()
	shared.mu.Lock()
	h := shared.h
	shared.h, shared.keep = nil, false
	shared.mu.Unlock()
	if h != nil {
		h.close()
	}
	return code
}

func start(exe string) (*Harness, error) {
	out, err := bundle()
	if err != nil {
		return nil, err
	}
	h := &Harness{scenes: map[string][]byte{}, results: map[string]map[string][]byte{}}
	h.srv = httptest.NewServer(h.handler(out))

	opts := append(testenv.BrowserOptions(exe),
		// The same pixels on every machine: no hinting, no device scaling.
		chromedp.Flag("font-render-hinting", "none"),
		chromedp.Flag("force-device-scale-factor", "1"),
		// Only the loopback server: Excalidraw's fallback font URLs
		// (esm.sh) fail at once instead of waiting for the network.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	h.browser = browser
	h.cancel = func() { cancelBrowser(); cancelAlloc() }
	// The first tab keeps the browser; pages are opened in others, so one
	// can be thrown away (after a timeout) without closing the browser.
	if err := chromedp.Do(browser); err != nil {
		h.close()
		return nil, fmt.Errorf("starting %s: %w", exe, err)
	}
	if err := h.openTab(); err != nil {
		h.close()
		return nil, err
	}
	return h, nil
}

func (h *Harness) close() {
	if h.cancelTab != nil {
		h.cancelTab()
	}
	h.cancel()
	h.srv.Close()
}

// openTab opens the page in a new tab and waits for Excalidraw's module.
func (h *Harness) openTab() error {
	tab, cancel := chromedp.NewContext(h.browser)
	if err := chromedp.Listen(tab, h.listen); err != nil {
		cancel()
		return err
	}
	ctx, cancelWait := context.WithTimeout(tab, time.Minute)
	defer cancelWait()
	err := chromedp.Do(ctx,
		chromedp.Navigate(h.srv.URL+"/"),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`window.rendercheck && window.rendercheck.ready`, chromedp.WithPollingInterval(20*time.Millisecond))(ctx, t)
			return err
		}),
	)
	if err != nil {
		cancel()
		return fmt.Errorf("loading the Excalidraw page: %w%s", err, h.takeConsole())
	}
	h.takeConsole()
	h.tab, h.cancelTab = tab, cancel
	return nil
}

// listen keeps the page's console errors and warnings and its exceptions.
func (h *Harness) listen(ev any) {
	var msg string
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type != runtime.ConsoleAPICalledTypeError && e.Type != runtime.ConsoleAPICalledTypeWarning && e.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var parts []string
		for _, a := range e.Args {
			if len(a.Value) > 0 {
				parts = append(parts, strings.Trim(string(a.Value), `"`))
			} else {
				parts = append(parts, a.Description)
			}
		}
		msg = "console." + string(e.Type) + ": " + strings.Join(parts, " ")
	case *runtime.EventExceptionThrown:
		msg = "exception: " + e.ExceptionDetails.Text
		if ex := e.ExceptionDetails.Exception; ex != nil {
			msg += " " + ex.Description
		}
	default:
		return
	}
	h.cmu.Lock()
	defer h.cmu.Unlock()
	if len(h.console) < 100 {
		h.console = append(h.console, msg)
	}
}

// takeConsole returns and clears what listen kept, as a suffix for an
// error message ("" when nothing).
func (h *Harness) takeConsole() string {
	lines := h.consoleLines()
	if len(lines) == 0 {
		return ""
	}
	return "\n\t" + strings.Join(lines, "\n\t")
}

func (h *Harness) consoleLines() []string {
	h.cmu.Lock()
	defer h.cmu.Unlock()
	lines := h.console
	h.console = nil
	return lines
}

// handler serves the page, the bundle, Excalidraw's fonts, the scene
// being rendered, and takes the results the page posts.
func (h *Harness) handler(bundleDir string) http.Handler {
	mux := http.NewServeMux()
	page, _ := harnessFiles.ReadFile("harness/index.html")
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.Handle("GET /bundle/", http.StripPrefix("/bundle/", http.FileServer(http.Dir(bundleDir))))
	fonts := http.FileServer(http.Dir(distDir()))
	mux.HandleFunc("GET /fonts/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "font/woff2")
		fonts.ServeHTTP(w, r)
	})
	mux.HandleFunc("GET /scene/{id}", func(w http.ResponseWriter, r *http.Request) {
		h.smu.Lock()
		b, ok := h.scenes[r.PathValue("id")]
		h.smu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	})
	mux.HandleFunc("POST /result/{id}/{kind}", func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		h.smu.Lock()
		defer h.smu.Unlock()
		res, ok := h.results[r.PathValue("id")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		res[r.PathValue("kind")] = b
		w.WriteHeader(http.StatusNoContent)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		mux.ServeHTTP(rw, r)
		if rw.status >= 400 {
			h.smu.Lock()
			h.missed = append(h.missed, fmt.Sprintf("%s %s: %d", r.Method, r.URL.Path, rw.status))
			h.smu.Unlock()
		}
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// pageResult is what window.rendercheck.render returns.
type pageResult struct {
	SVGMs    float64         `json:"svgMs"`
	PNGMs    float64         `json:"pngMs"`
	Unscaled [2]float64      `json:"unscaled"`
	TooBig   bool            `json:"tooBig"`
	Fonts    map[string]bool `json:"fonts"`
}

// Render exports one scene (the JSON text of an .excalidraw document) with
// Excalidraw's exportToSvg and exportToBlob. name identifies the scene in
// errors. A scene Excalidraw cannot export, a page error or a timeout is
// an error naming the scene; after a timeout the page is reopened, so the
// next render starts clean.
func (h *Harness) Render(name string, scene []byte, o Options) (Output, error) {
	if o.Scale == 0 {
		o.Scale = 1
	}
	if o.Runs <= 0 {
		o.Runs = 1
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxPixels <= 0 {
		o.MaxPixels = DefaultMaxPixels
	}
	out := Output{Name: name}
	fail := func(err error) (Output, error) {
		return out, fmt.Errorf("rendercheck: %s: %w", name, err)
	}
	if !(o.Scale > 0) || math.IsInf(o.Scale, 0) {
		return fail(fmt.Errorf("scale %v", o.Scale))
	}
	if !json.Valid(scene) {
		return fail(errors.New("the scene is not valid JSON"))
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tab == nil {
		if err := h.openTab(); err != nil {
			return fail(err)
		}
	}
	h.seq++
	id := strconv.Itoa(h.seq)
	h.smu.Lock()
	h.scenes[id] = scene
	h.results[id] = map[string][]byte{}
	h.missed = nil
	h.smu.Unlock()
	defer func() {
		h.smu.Lock()
		delete(h.scenes, id)
		delete(h.results, id)
		h.smu.Unlock()
	}()
	h.consoleLines()

	args, _ := json.Marshal(map[string]any{
		"scale": o.Scale, "background": o.Background, "dark": o.Dark, "padding": o.Padding,
		"runs": o.Runs, "maxPixels": o.MaxPixels, "maxSide": MaxSide, "frame": o.Frame,
	})
	ctx, cancel := context.WithTimeout(h.tab, o.Timeout)
	defer cancel()
	res, err := chromedp.Run(ctx, chromedp.Evaluate[pageResult](
		fmt.Sprintf("window.rendercheck.render(%q, %s)", id, args), chromedp.EvalAwaitPromise))
	out.Console = h.consoleLines()
	if err != nil {
		if ctx.Err() != nil {
			// The page may still be busy: throw it away.
			h.cancelTab()
			h.tab, h.cancelTab = nil, nil
			err = fmt.Errorf("no result within %v: %w", o.Timeout, err)
		}
		return fail(fmt.Errorf("%w%s", err, consoleSuffix(out.Console)))
	}
	h.smu.Lock()
	svg, pngBytes, missed := h.results[id]["svg"], h.results[id]["png"], h.missed
	h.smu.Unlock()
	if len(missed) > 0 {
		return fail(fmt.Errorf("the server could not answer the page's requests: %s", strings.Join(missed, "; ")))
	}

	out.SVG = string(svg)
	out.SVGTime = ms(res.SVGMs)
	out.PNGTime = ms(res.PNGMs)
	out.ExportWidth, out.ExportHeight = res.Unscaled[0], res.Unscaled[1]
	out.Width, out.Height = int(math.Trunc(res.Unscaled[0]*o.Scale)), int(math.Trunc(res.Unscaled[1]*o.Scale))
	out.Fonts = res.Fonts
	if res.TooBig {
		return out, fmt.Errorf("rendercheck: %s: a PNG of %d×%d px (scale %v) is over the cap of %d px in all and %d a side: %w",
			name, out.Width, out.Height, o.Scale, o.MaxPixels, MaxSide, ErrCanvasTooBig)
	}
	if len(pngBytes) == 0 {
		return fail(errors.New("the page posted no PNG"))
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(pngBytes))
	if err != nil {
		return fail(fmt.Errorf("the PNG: %w", err))
	}
	if cfg.Width != out.Width || cfg.Height != out.Height {
		return fail(fmt.Errorf("the PNG is %d×%d, Excalidraw's export size says %d×%d", cfg.Width, cfg.Height, out.Width, out.Height))
	}
	out.PNG = pngBytes
	return out, nil
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func consoleSuffix(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return "\n\t" + strings.Join(lines, "\n\t")
}
