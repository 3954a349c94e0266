package excalidrawcmd

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/excalidraw/httpapi"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// exportFormats are --format's values and the routes that give each:
// the stored scene, or the host's picture of it.
var exportFormats = map[string]string{
	"excalidraw": "",
	"svg":        "/render.svg",
	"png":        "/render.png",
}

// newBoardExport is `dsh board export`: boards the token may read, each
// into one file of --out, written whole (a temp name, synced, renamed
// in), so an interrupted run leaves no partial file and a re-run skips
// what is done.
func newBoardExport() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export [BOARD...] --out DIR [--all] [--format excalidraw|svg|png]",
		Short: "Export boards into a folder, as .excalidraw files or pictures",
		Long: "Writes each board named (or, with --all, every board the token may read) into --out as\n" +
			"BOARD.excalidraw (the scene, which Excalidraw opens), or BOARD.svg or BOARD.png drawn by the host\n" +
			"(--format). On a terminal it shows the boards done, the bytes and the time left; otherwise it\n" +
			"prints one summary line. Each file is written under a temporary name, synced and renamed in, so\n" +
			"Ctrl+C leaves no partial file; running it again skips the boards whose file already holds the\n" +
			"same revision (the folder's " + exportIndex + " records what each file holds).",
		Example: "  dsh board export --all --out ./boards --config config.example.yaml\n" +
			"  dsh board export plan --format svg --out ./pictures --config config.example.yaml",
		RunE: runExport,
	}
	cmd.Flags().String("out", "", "the folder to write into (made if missing)")
	cmd.Flags().Bool("all", false, "every board the token may read")
	cmd.Flags().String("format", "excalidraw", "excalidraw, svg or png")
	return cmd
}

// runExport checks the arguments before it writes anything, then exports
// the boards one by one.
func runExport(cmd *cobra.Command, args []string) error {
	out, _ := cmd.Flags().GetString("out")
	all, _ := cmd.Flags().GetBool("all")
	format, _ := cmd.Flags().GetString("format")
	route, ok := exportFormats[format]
	switch {
	case !ok:
		return fmt.Errorf("--format must be excalidraw, svg or png, not %q", format)
	case out == "":
		return fmt.Errorf("--out DIR is required: the folder to write the boards into")
	case all == (len(args) > 0):
		return fmt.Errorf("name the boards to export, or pass --all (not both)")
	}
	for _, name := range args {
		if err := exportName(name); err != nil {
			return err
		}
	}
	var list struct {
		Scenes []service.SceneSummary `json:"scenes"`
	}
	if err := send(cmd, http.MethodGet, httpapi.Prefix+"/api/scenes", nil, &list); err != nil {
		return err
	}
	boards, err := exportList(list.Scenes, args)
	if err != nil {
		return err
	}
	if unreadable := len(list.Scenes) - len(boards); all && unreadable > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "passing over %d boards that cannot be read (dsh lists them with their problem)\n", unreadable)
	}
	t, err := cli.Host(cmd)
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	unlock, err := lockFolder(ctx, dir)
	if err != nil {
		return err
	}
	defer unlock()
	e := &exporter{t: t, dir: dir, format: format, route: route, index: readIndex(dir)}
	removeStale(dir)
	p := cli.NewProgress(cmd, "exported", "boards", len(boards), true)
	err = e.all(ctx, boards, p)
	if serr := e.index.save(dir); err == nil && serr != nil {
		err = fmt.Errorf("export: %w", serr)
	}
	if err != nil {
		p.Clear()
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted: %s so far into %s, no partial file (run it again to finish: the boards done are skipped): %w", p.Counts(), dir, ctx.Err())
		}
		return fmt.Errorf("export stopped: %s so far into %s: %w", p.Counts(), dir, err)
	}
	p.Finish(cmd, dir)
	if len(e.passed) > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "passed over %d of the boards:\n  %s\n", len(e.passed), strings.Join(e.passed, "\n  "))
		if !all {
			return fmt.Errorf("not every board named was exported: %d passed over (above)", len(e.passed))
		}
	}
	return nil
}

// lockFolder takes the export folder dir for this run, or refuses at
// once when another export writes into it (each would take the other's
// files being written for a killed run's and remove them).
func lockFolder(ctx context.Context, dir string) (unlock func(), err error) {
	once, cancel := context.WithCancel(ctx)
	cancel() // one try, no waiting
	unlock, err = statefile.LockWithin(once, filepath.Join(dir, exportIndex))
	if err != nil {
		return nil, fmt.Errorf("another dsh board export is writing into %s: let it finish, or export into another folder", dir)
	}
	return unlock, nil
}

// exportName refuses a board name that is not one the store allows or
// whose file would not be a plain name inside the folder.
func exportName(name string) error {
	if err := store.ValidName(name); err != nil {
		return err
	}
	if !filepath.IsLocal(name) || filepath.Base(name) != name {
		return store.NewError(store.CodeInvalidName, fmt.Sprintf("board name %q would leave the export folder", name), nil).With("name", name)
	}
	return nil
}

// exportList is the listed boards to export: those named (each must be
// listed: not_found otherwise), or every readable one.
func exportList(listed []service.SceneSummary, names []string) ([]service.SceneSummary, error) {
	if len(names) == 0 {
		var out []service.SceneSummary
		for _, s := range listed {
			if s.Valid && exportName(s.Name) == nil {
				out = append(out, s)
			}
		}
		return out, nil
	}
	by := map[string]service.SceneSummary{}
	for _, s := range listed {
		by[s.Name] = s
	}
	var out []service.SceneSummary
	for _, n := range names {
		s, ok := by[n]
		if !ok {
			return nil, &cli.HostError{Code: "not_found", Message: "no board " + n + " this token may read"}
		}
		out = append(out, s)
	}
	return out, nil
}

// exporter writes boards of the host t into dir.
type exporter struct {
	t             cli.Target
	dir           string
	format, route string
	index         exportRecords
	passed        []string // boards passed over, with why
	client        http.Client
}

// all exports each board, skipping those whose file holds their revision
// already; it saves the index every hundred boards, so a killed run
// loses little.
func (e *exporter) all(ctx context.Context, boards []service.SceneSummary, p *cli.Progress) error {
	for i, b := range boards {
		if err := ctx.Err(); err != nil {
			return err
		}
		file := b.Name + "." + e.format
		if e.index.holds(e.dir, file, b) {
			p.Skip()
			continue
		}
		rec, n, err := e.one(ctx, b, file)
		if he := (*cli.HostError)(nil); errors.As(err, &he) && he.Code == "not_found" {
			// Nothing to draw (an empty board as a picture), or deleted
			// since the listing: the others are still exported.
			e.passed = append(e.passed, b.Name+": "+he.Message)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", b.Name, err)
		}
		e.index[file] = rec
		p.Add(n)
		if i%100 == 99 {
			if err := e.index.save(e.dir); err != nil {
				return err
			}
		}
	}
	return nil
}

// one writes board b into dir/file and returns what it holds and its
// size.
func (e *exporter) one(ctx context.Context, b service.SceneSummary, file string) (exportRecord, int64, error) {
	path := httpapi.Prefix + "/api/scenes/" + url.PathEscape(b.Name) + e.route
	resp, err := e.get(ctx, path)
	if err != nil {
		return exportRecord{}, 0, err
	}
	defer resp.Body.Close()
	rec := exportRecord{Revision: b.Revision, SHA256: b.SHA256}
	var body io.Reader = resp.Body
	if e.route == "" {
		var r service.ReadResult
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			return exportRecord{}, 0, fmt.Errorf("read the scene: %w", err)
		}
		rec.Revision, rec.SHA256 = r.Revision, r.SHA256
		body = bytes.NewReader(r.Scene)
	} else if rev, err := strconv.ParseInt(resp.Header.Get("X-Scene-Revision"), 10, 64); err != nil || rev != b.Revision {
		rec.Revision, rec.SHA256 = rev, "" // drawn from another revision than listed: not skipped next time
	}
	n, sum, err := writeWhole(e.dir, file, body)
	rec.File = sum
	return rec, n, err
}

// get is GET path on the host, its answer when it is 200, the host's
// refusal otherwise.
func (e *exporter) get(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.t.URL+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+e.t.Token)
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusOK {
		return resp, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	var he struct {
		Error cli.HostError `json:"error"`
	}
	if json.Unmarshal(raw, &he) == nil && he.Error.Code != "" {
		return nil, &he.Error
	}
	return nil, fmt.Errorf("%s: %s", resp.Status, raw)
}

// exportIndex is the file in the export folder that records what each
// exported file holds; it starts with a dot, which no board name does.
const exportIndex = ".dsh-export.json"

// exportRecord is what one exported file holds: the board's revision and
// scene hash, and the hash of the file's bytes.
type exportRecord struct {
	Revision int64  `json:"revision"`
	SHA256   string `json:"sha256"`
	File     string `json:"fileSha256"`
}

// exportRecords are the index's records, by file name.
type exportRecords map[string]exportRecord

// readIndex is dir's index; none, or one that does not parse, is empty
// (every board is exported again).
func readIndex(dir string) exportRecords {
	out := exportRecords{}
	raw, err := os.ReadFile(filepath.Join(dir, exportIndex))
	if err == nil && json.Unmarshal(raw, &out) != nil {
		out = exportRecords{}
	}
	return out
}

// holds reports whether dir/file is a regular file with the bytes the
// index records for board b's current revision and hash.
func (x exportRecords) holds(dir, file string, b service.SceneSummary) bool {
	r, ok := x[file]
	if !ok || r.Revision != b.Revision || r.SHA256 == "" || r.SHA256 != b.SHA256 {
		return false
	}
	f, err := os.OpenFile(filepath.Join(dir, file), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return false
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == r.File
}

// save writes the index whole into dir.
func (x exportRecords) save(dir string) error {
	return statefile.WriteJSON(filepath.Join(dir, exportIndex), "export index", x)
}

// writeWhole writes r into dir/file, whole or not at all
// (statefile.WriteAtomicFrom: a temp file synced and renamed in), and
// returns the size and SHA-256 of what it wrote.
func writeWhole(dir, file string, r io.Reader) (int64, string, error) {
	if !filepath.IsLocal(file) || filepath.Base(file) != file {
		return 0, "", fmt.Errorf("%q is not a file name inside %s: refused", file, dir)
	}
	h := sha256.New()
	n, err := statefile.WriteAtomicFrom(filepath.Join(dir, file), io.TeeReader(r, h), 0o600)
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// removeStale removes the temp files a killed run left in dir: those
// writeWhole names for the files an export writes (".NAME.EXT" and
// statefile.TempMark), regular files directly in dir.
func removeStale(dir string) {
	for _, ext := range append(slices.Collect(maps.Keys(exportFormats)), "json") {
		stale, _ := filepath.Glob(filepath.Join(dir, ".*."+ext+statefile.TempMark+"*"))
		for _, p := range stale {
			if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() {
				_ = os.Remove(p)
			}
		}
	}
}
