package main

import (
	"context"
	"encoding/json"
	"image/png"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// interruptAt makes the next long command stop as Ctrl+C stops it once
// it has done n things of verb: the hook cancels the command's context,
// the parent of its signal context, so the command sees it at once.
func interruptAt(t *testing.T, verb string, n int) context.Context {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cli.ProgressHook = func(v string, done int) {
		if v == verb && done == n {
			cancel()
		}
	}
	t.Cleanup(func() { cli.ProgressHook = nil })
	return ctx
}

// fourBoards serves a host with the excalidraw plugin from a new config
// (cfg) and makes the boards alpha, beta, gamma and delta, each holding
// one rectangle "box-NAME"; stop stops the host.
func fourBoards(t *testing.T) (cfg string, info cli.RuntimeInfo, stop func(), c *http.Client, boards []string) {
	t.Helper()
	cfg = writeConfigWith(t, "  - {id: excalidraw, name: excalidraw}\n")
	info, stop = serve(t, cfg)
	c = browser(t)
	boards = []string{"alpha", "beta", "gamma", "delta"}
	for _, b := range boards {
		if _, err := run(t, context.Background(), "board", "create", b, "--config", cfg); err != nil {
			t.Fatal(err)
		}
		putScene(t, c, info, b, "box-"+b)
	}
	return cfg, info, stop, c, boards
}

// putScene saves board's scene with one rectangle, id, through the host.
func putScene(t *testing.T, c *http.Client, info cli.RuntimeInfo, board, id string) {
	t.Helper()
	body := `{"scene":{"type":"excalidraw","version":2,"elements":[{"type":"rectangle","id":"` + id +
		`","x":0,"y":0,"width":10,"height":10}],"appState":{}},"force":true}`
	if resp, b := dshtest.Send(t, c, http.MethodPut, info.URL+"/dsh-excalidraw/api/scenes/"+board, body,
		"Authorization", "Bearer "+info.Token, "Content-Type", "application/json"); resp.StatusCode >= 300 {
		t.Fatalf("save %s: %d %s", board, resp.StatusCode, b)
	}
}

// dsh board export --all writes one .excalidraw file per board, whole:
// interrupted after two boards it leaves those two and no partial file
// and says so; run again it writes the rest and skips the two, and its
// summary line says how many it skipped; a board changed since is
// written again; --format svg and png write the host's pictures. Names
// that are not boards' (or would leave the folder), both names and
// --all, and an unknown format are refused before anything is written.
func TestBoardExportInterruptAndRerun(t *testing.T) {
	cfg, info, _, c, boards := fourBoards(t)
	out := filepath.Join(t.TempDir(), "out")
	export := func(ctx context.Context, args ...string) (string, error) {
		return run(t, ctx, append([]string{"board", "export", "--out", out, "--config", cfg}, args...)...)
	}

	got, err := export(interruptAt(t, "exported", 2), "--all")
	if err == nil || !strings.Contains(err.Error(), "interrupted") || got != "" {
		t.Fatalf("an interrupted export: %v\n%s", err, got)
	}
	if files := dirNames(t, out); !slices.Equal(files, []string{".dsh-export.json", ".dsh-export.json.lock", "alpha.excalidraw", "beta.excalidraw"}) {
		t.Fatalf("after the interrupt the folder holds %v, want the first two boards whole and the index", files)
	}
	cli.ProgressHook = nil

	summary := func(exported, unchanged string) *regexp.Regexp {
		noun := " boards, "
		if exported == "1" {
			noun = " board, "
		}
		return regexp.MustCompile(`^exported ` + exported + noun + `[0-9.]+ (B|KiB|MiB)` + unchanged + ` in \S+: ` + regexp.QuoteMeta(out) + "\n$")
	}
	if got, err = export(context.Background(), "--all"); err != nil || !summary("2", ", 2 unchanged").MatchString(got) {
		t.Fatalf("the re-run: %v\n%q", err, got)
	}
	for _, b := range boards {
		checkExported(t, filepath.Join(out, b+".excalidraw"), "box-"+b)
	}
	if got, err = export(context.Background(), "--all"); err != nil || !summary("0", ", 4 unchanged").MatchString(got) {
		t.Fatalf("a third run: %v\n%q", err, got)
	}
	putScene(t, c, info, "gamma", "changed")
	if got, err = export(context.Background(), "--all"); err != nil || !summary("1", ", 3 unchanged").MatchString(got) {
		t.Fatalf("after a change: %v\n%q", err, got)
	}
	checkExported(t, filepath.Join(out, "gamma.excalidraw"), "changed")

	if got, err = export(context.Background(), "beta", "--format", "svg"); err != nil || !summary("1", "").MatchString(got) {
		t.Fatalf("one board as SVG: %v\n%q", err, got)
	}
	if svg, err := os.ReadFile(filepath.Join(out, "beta.svg")); err != nil || !strings.Contains(string(svg), "<svg") {
		t.Fatalf("beta.svg: %v\n%.200s", err, svg)
	}

	if got, err = export(context.Background(), "alpha", "--format", "png"); err != nil || !summary("1", "").MatchString(got) {
		t.Fatalf("one board as PNG: %v\n%q", err, got)
	}
	if f, err := os.Open(filepath.Join(out, "alpha.png")); err != nil {
		t.Fatal(err)
	} else if _, err := png.DecodeConfig(f); f.Close() != nil || err != nil {
		t.Fatalf("alpha.png is no PNG: %v", err)
	}

	// An empty board has no picture: --all passes over it and exports
	// the others; named, it is an error, after the others.
	if _, err := run(t, context.Background(), "board", "create", "empty", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	pics := filepath.Join(t.TempDir(), "pics")
	if got, err = run(t, context.Background(), "board", "export", "--all", "--format", "svg", "--out", pics, "--config", cfg); err != nil || !summary("4", "").MatchString(strings.Replace(got, pics, out, 1)) {
		t.Fatalf("--all as SVG with an empty board: %v\n%q", err, got)
	}
	if files := dirNames(t, pics); slices.Contains(files, "empty.svg") || !slices.Contains(files, "delta.svg") {
		t.Fatalf("--all as SVG with an empty board wrote %v", files)
	}
	if _, err := run(t, context.Background(), "board", "export", "empty", "alpha", "--format", "png", "--out", pics, "--config", cfg); err == nil ||
		!strings.Contains(err.Error(), "not every board named was exported: 1 passed over") {
		t.Fatalf("an empty board named as PNG: %v", err)
	}
	if _, err := os.Stat(filepath.Join(pics, "alpha.png")); err != nil {
		t.Fatalf("the board named beside the empty one: %v", err)
	}

	// A second export into the folder while one runs is refused at once:
	// each would remove the other's files being written.
	unlock, err := statefile.Lock(filepath.Join(out, ".dsh-export.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := export(context.Background(), "--all"); err == nil || !strings.Contains(err.Error(), "another dsh board export") {
		t.Errorf("an export into a folder another export holds: %v", err)
	}
	unlock()

	fresh := filepath.Join(t.TempDir(), "fresh")
	for _, args := range [][]string{{"../alpha"}, {"nosuch"}, {"alpha", "--all"}, {"alpha", "--format", "pdf"}} {
		_, err := run(t, context.Background(), append([]string{"board", "export", "--out", fresh, "--config", cfg}, args...)...)
		if err == nil {
			t.Errorf("export %v: no error", args)
		}
		if _, serr := os.Stat(fresh); serr == nil {
			t.Fatalf("export %v (%v) made the folder", args, err)
		}
	}
	if _, err := run(t, context.Background(), "board", "export", "../alpha", "--out", fresh, "--config", cfg); err == nil ||
		!strings.Contains(err.Error(), "invalid_name") {
		t.Errorf("a name that leaves the folder: %v, want invalid_name", err)
	}
}

// checkExported fails unless file is an Excalidraw scene whose one
// element has the id want.
func checkExported(t *testing.T, file, want string) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Type     string `json:"type"`
		Elements []struct {
			ID string `json:"id"`
		} `json:"elements"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || doc.Type != "excalidraw" || len(doc.Elements) != 1 || doc.Elements[0].ID != want {
		t.Fatalf("%s: %v, want a scene with element %s:\n%.300s", file, err, want, raw)
	}
}

// An export interrupted while a file's bytes are arriving leaves no part
// of it: the host's answer for the second board stops half way (a
// loopback proxy in front of the real host sends half, waits until the
// export has written it, and then interrupts), and the folder holds the
// first board's picture only. A part that a killed run left is removed
// by the next run.
func TestBoardExportInterruptedMidFile(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: excalidraw, name: excalidraw}\n")
	info, _ := serve(t, cfg)
	c := browser(t)
	for _, b := range []string{"alpha", "beta"} {
		if _, err := run(t, context.Background(), "board", "create", b, "--config", cfg); err != nil {
			t.Fatal(err)
		}
		putScene(t, c, info, b, "box-"+b)
	}
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, info.URL+r.URL.RequestURI(), nil)
		req.Header = r.Header.Clone()
		resp, err := c.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		maps.Copy(w.Header(), resp.Header)
		if !strings.HasSuffix(r.URL.Path, "/beta/render.svg") {
			w.WriteHeader(resp.StatusCode)
			_, _ = w.Write(body)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		waitForPart(t, out, ".beta.svg.tmp-*", int64(len(body)/2))
		cancel()
		<-r.Context().Done()
	}))
	defer proxy.Close()
	got, err := run(t, ctx, "board", "export", "--all", "--format", "svg", "--out", out, "--url", proxy.URL, "--token", info.Token)
	if err == nil || !strings.Contains(err.Error(), "interrupted") || got != "" {
		t.Fatalf("an export interrupted mid-file: %v\n%s", err, got)
	}
	if files := dirNames(t, out); !slices.Equal(files, []string{".dsh-export.json", ".dsh-export.json.lock", "alpha.svg"}) {
		t.Fatalf("the folder holds %v, want alpha.svg, the index and its lock only", files)
	}
	// A part a killed run left is removed by the next, which finishes.
	if err := os.WriteFile(filepath.Join(out, ".beta.svg.tmp-12345"), []byte("<svg"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err = run(t, context.Background(), "board", "export", "--all", "--format", "svg", "--out", out, "--url", info.URL, "--token", info.Token)
	if err != nil || !strings.HasPrefix(got, "exported 1 board, ") || !strings.Contains(got, ", 1 unchanged in ") {
		t.Fatalf("the re-run: %v\n%s", err, got)
	}
	if files := dirNames(t, out); !slices.Equal(files, []string{".dsh-export.json", ".dsh-export.json.lock", "alpha.svg", "beta.svg"}) {
		t.Fatalf("after the re-run the folder holds %v", files)
	}
}

// waitForPart waits until dir holds a file matching pattern with size
// bytes: the part of a file the export has written.
func waitForPart(t *testing.T, dir, pattern string, size int64) {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		parts, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, p := range parts {
			if info, err := os.Stat(p); err == nil && info.Size() == size {
				return
			}
		}
	}
	t.Errorf("no part of %s with %d bytes appeared in %s", pattern, size, dir)
}
