package cli

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/statefile"
)

// The backup archive is a tar file (gzip-compressed when its name ends in
// .gz or .tgz), in PAX format so modification times keep their
// nanoseconds:
//
//	dsh-backup.json      first: {"format":"dsh-backup@1","version","created"}
//	<path>               each file, its path relative to the data directory
//	                     (slash-separated, never absolute, no ".."), a regular
//	                     file 0600 with its modification time
//	dsh-backup.sha256    last: "<sha256 hex>  <path>" per file, as sha256sum
//	                     prints it, in archive order
//
// Restore takes nothing but these: a file the manifest does not list, one
// it lists that is missing, or any other kind of entry fails the archive.
const (
	backupFormat   = "dsh-backup@1"
	backupHeader   = "dsh-backup.json"
	backupManifest = "dsh-backup.sha256"
)

// Backup is one `dsh backup` run, as a module's Backup sees it. The run
// is one moment of everything a running host keeps under a lock, taken
// in two phases:
//
//  1. The moment: each module's Backup runs in turn, then the host's
//     state documents are taken (AddDoc). A module takes its own locks
//     (as its writers take them), opens what it keeps under them, and
//     registers Hold to let them go and Then to copy what it opened;
//     AddDoc does both for a state document. Every lock is held from
//     before its files are opened until after the last part's are, so
//     all of them hold at one instant, the moment, and every file opened
//     under a lock has the bytes it had then.
//  2. Every Hold's release runs (writers go on) and then, in order,
//     every Then, which copies at leisure.
//
// Add, AddFile and AddTree copy at once: files writers only ever create
// whole and replace by rename (images, exports), which a module adds in
// a Then; they are of the copy's time, not of the moment.
type Backup struct {
	// Config is --config, read.
	Config *dsh.LoadedConfig
	// Entry is the config of the module plugin's first entry that is not
	// disabled (its schema's defaults when there is none).
	Entry app.Config

	w        *archiveWriter
	ctx      context.Context
	warn     io.Writer
	releases []func()
	thens    []func() error
	cleanups []func()
}

// docLockWait is how long AddDoc tries for a state document's lock, the
// moment's other locks held, before it gives up (a writer holding it
// that waits on one of them gives up first: see statefile.LockWithin).
const docLockWait = 30 * time.Second

// Hold registers release, which ends a part's hold on its writers: it
// runs once every part has taken its share of the moment, before any
// Then, and on failure.
func (b *Backup) Hold(release func()) { b.releases = append(b.releases, release) }

// Then registers copy, which runs after the moment, in the order the
// parts registered theirs.
func (b *Backup) Then(copy func() error) { b.thens = append(b.thens, copy) }

// Warn tells the person running the backup something they should know
// about it (on standard error), such as a part that could not be of the
// moment.
func (b *Backup) Warn(msg string) { fmt.Fprintf(b.warn, "dsh backup: %s\n", msg) }

// Cleanup registers fn to run when the backup ends, whether it
// succeeded or not (last registered, first run), after every release.
func (b *Backup) Cleanup(fn func()) { b.cleanups = append(b.cleanups, fn) }

// end releases every hold and runs every cleanup.
func (b *Backup) end() {
	b.release()
	for _, fn := range slices.Backward(b.cleanups) {
		fn()
	}
	b.cleanups = nil
}

// AddDoc takes the state document kept in the file at path into the
// moment: under its lock (the one every writer of it takes,
// statefile's), held until the moment ends, it opens the file, and
// copies it afterwards. A missing one is left out.
func (b *Backup) AddDoc(path string) error {
	ctx, cancel := context.WithTimeout(b.ctx, docLockWait)
	defer cancel()
	unlock, err := statefile.LockWithin(ctx, path)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	b.Hold(unlock)
	f, info, err := openRegular(path)
	if f == nil || err != nil {
		return err
	}
	b.Cleanup(func() { f.Close() })
	b.Then(func() error {
		return b.Add(path, info.Size(), info.ModTime(), io.NewSectionReader(f, 0, info.Size()))
	})
	return nil
}

// release ends every hold, once.
func (b *Backup) release() {
	for _, r := range slices.Backward(b.releases) {
		r()
	}
	b.releases = nil
}

// DataDir is the data directory being backed up (absolute).
func (b *Backup) DataDir() string { return b.w.root }

// Add adds size bytes of r as the file at path, which must be inside the
// data directory.
func (b *Backup) Add(path string, size int64, mtime time.Time, r io.Reader) error {
	rel, err := b.w.rel(path)
	if err != nil {
		return err
	}
	return b.w.add(rel, size, mtime, r)
}

// AddFile adds the regular file at path as it is now; a missing one is
// left out. Use it for files writers replace by rename.
func (b *Backup) AddFile(path string) error {
	f, info, err := openRegular(path)
	if f == nil || err != nil {
		return err
	}
	defer f.Close()
	return b.Add(path, info.Size(), info.ModTime(), io.LimitReader(f, info.Size()))
}

// openRegular opens the regular file at path, never following a link;
// nil and no error when it is missing.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("backup: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("backup: %w", err)
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("backup: %s is not a regular file", path)
	}
	return f, info, nil
}

// AddTree adds every regular file under dir (a missing dir adds nothing)
// but those skip reports, given their slash-separated path relative to
// dir, and those no backup wants: files being written (".…tmp-…", the
// temp files dsh renames into place) and state documents' lock files
// ("….lock"). Symlinks and other special files are left out, never
// followed.
func (b *Backup) AddTree(dir string, skip func(rel string) bool) error {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if base := d.Name(); strings.HasPrefix(base, ".") && strings.Contains(base, ".tmp-") || strings.HasSuffix(base, ".lock") {
			return nil
		}
		if skip != nil && skip(filepath.ToSlash(rel)) {
			return nil
		}
		return b.AddFile(p)
	})
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

func newBackup() *cobra.Command {
	return &cobra.Command{
		Use:   "backup FILE",
		Short: "Write everything the data directory keeps into one archive file",
		Long: "Writes a consistent snapshot of the data directory of --config into FILE, a tar archive\n" +
			"(gzip-compressed when FILE ends in .gz or .tgz) with a SHA-256 of every file: the host's people,\n" +
			"tokens and sessions, and what each linked plugin keeps (the Excalidraw plugin's boards with their\n" +
			"sidecars, journals and kept revisions, its board records, and its images and exports).\n" +
			"The host may be running: the boards and the people, tokens, sessions and board records are taken\n" +
			"as of one moment (every board's and document's lock held at once, for as long as it takes to open\n" +
			"their files, not for the copy), so a save is wholly in the backup or wholly not, and a save of one\n" +
			"board after another is never in it without the one before. Boards created after that moment, and\n" +
			"images and exports, are as the copy finds them. FILE appears only once it is complete; an\n" +
			"interrupted backup leaves none. With host.store kind postgres it takes the same from the database,\n" +
			"every row as of one moment (one exported snapshot).",
		Example: "  dsh backup dsh-backup.tar.gz --config config.example.yaml",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := LoadConfig(cmd)
			if err != nil {
				return err
			}
			if c.Host.Store.Kind == dsh.StorePostgres {
				return backupDatabase(cmd, c, args[0])
			}
			return runBackup(cmd, c, args[0])
		},
	}
}

// runBackup writes the archive to a temporary file beside file and
// renames it to file once it is complete and synced.
func runBackup(cmd *cobra.Command, c *dsh.LoadedConfig, file string) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root, err := filepath.Abs(c.Host.DataDir)
	if err != nil {
		return err
	}
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		return fmt.Errorf("no data directory to back up at %s", root)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp-*")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	p := newProgress(cmd, "backed up")
	w := newArchiveWriter(ctx, tmp, root, gzipped(file), p)
	b := &Backup{Config: c, w: w, ctx: ctx, warn: cmd.ErrOrStderr()}
	defer b.end()
	if err := w.header(); err != nil {
		return err
	}
	if err := b.moment(cmd, c, root); err != nil {
		return err
	}
	b.release()
	for _, copy := range b.thens {
		if err := copy(); err != nil {
			return err
		}
	}
	if err := w.close(); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	done = true
	syncDir(filepath.Dir(file))
	p.finish(cmd, file)
	return nil
}

// moment is the backup's first phase (see Backup): each module's part,
// then the host's state documents, every lock held until it returns.
func (b *Backup) moment(cmd *cobra.Command, c *dsh.LoadedConfig, root string) error {
	var err error
	for _, m := range modulesOf(cmd) {
		if m.Backup == nil {
			continue
		}
		if b.Entry, err = entryConfig(cmd, c, m.Plugin.Name); err != nil {
			return err
		}
		if err := m.Backup(b.ctx, b); err != nil {
			return fmt.Errorf("%s: %w", m.Plugin.Name, err)
		}
	}
	docs := hostDocs(root)
	for _, name := range slices.Sorted(maps.Keys(docs)) {
		if err := b.AddDoc(docs[name]); err != nil {
			return err
		}
	}
	return nil
}

// gzipped reports whether an archive called file is gzip-compressed.
func gzipped(file string) bool {
	return strings.HasSuffix(file, ".gz") || strings.HasSuffix(file, ".tgz")
}

// syncDir fsyncs a directory, best effort (a rename in it lasts).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// archiveWriter writes a backup archive: the header, the files with
// their hashes, and the manifest last.
type archiveWriter struct {
	ctx      context.Context
	root     string
	gz       *gzip.Writer
	tw       *tar.Writer
	manifest strings.Builder
	seen     map[string]bool
	p        *progress
}

func newArchiveWriter(ctx context.Context, w io.Writer, root string, compress bool, p *progress) *archiveWriter {
	a := &archiveWriter{ctx: ctx, root: root, seen: map[string]bool{}, p: p}
	if compress {
		a.gz = gzip.NewWriter(w)
		w = a.gz
	}
	a.tw = tar.NewWriter(w)
	return a
}

// rel is path's slash-separated path relative to the data directory.
func (a *archiveWriter) rel(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(a.root, abs)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("backup: %s is outside the data directory %s: dsh backup takes only what is inside it", path, a.root)
	}
	return filepath.ToSlash(rel), nil
}

func (a *archiveWriter) header() error {
	h, _ := json.Marshal(map[string]string{"format": backupFormat, "version": dsh.Version, "created": time.Now().UTC().Format(time.RFC3339Nano)})
	return a.entry(backupHeader, int64(len(h)), time.Now(), strings.NewReader(string(h)))
}

// add writes one file and notes its hash; a path already added is left
// alone (two parts may name the same file).
func (a *archiveWriter) add(rel string, size int64, mtime time.Time, r io.Reader) error {
	if err := a.ctx.Err(); err != nil {
		return fmt.Errorf("backup interrupted: %w", err)
	}
	if a.seen[rel] {
		return nil
	}
	if rel == backupHeader || rel == backupManifest {
		return fmt.Errorf("backup: the data directory holds %s, a name the archive keeps for itself", rel)
	}
	a.seen[rel] = true
	h := sha256.New()
	if err := a.entry(rel, size, mtime, io.TeeReader(r, h)); err != nil {
		return fmt.Errorf("backup: %s: %w", rel, err)
	}
	fmt.Fprintf(&a.manifest, "%s  %s\n", hex.EncodeToString(h.Sum(nil)), rel)
	a.p.add(size)
	return nil
}

func (a *archiveWriter) entry(name string, size int64, mtime time.Time, r io.Reader) error {
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: size, Mode: 0o600, ModTime: mtime, Format: tar.FormatPAX}
	if err := a.tw.WriteHeader(hdr); err != nil {
		return err
	}
	n, err := io.Copy(a.tw, r)
	if err == nil && n != size {
		err = fmt.Errorf("read %d bytes, the file had %d", n, size)
	}
	return err
}

// close writes the manifest and ends the archive.
func (a *archiveWriter) close() error {
	m := a.manifest.String()
	if err := a.entry(backupManifest, int64(len(m)), time.Now(), strings.NewReader(m)); err != nil {
		return err
	}
	if err := a.tw.Close(); err != nil {
		return err
	}
	if a.gz != nil {
		return a.gz.Close()
	}
	return nil
}
