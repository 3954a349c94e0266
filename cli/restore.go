package cli

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
)

// restoreStaging is the folder inside the target a restore fills before
// moving what it holds up into the target: a restore that fails or is
// interrupted leaves nothing else, and the next one removes it.
const restoreStaging = ".dsh-restore"

func newRestore() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "restore FILE [--data DIR]",
		Short: "Fill an empty data directory from a `dsh backup` archive",
		Long: "Restores the archive FILE made by `dsh backup` into --data (default: the data directory of\n" +
			"--config, or its database when host.store is postgres), which must be empty or missing: a directory\n" +
			"or database that holds anything is refused and left as it is. Every file comes back byte for byte with its modification time; an archive whose SHA-256\n" +
			"sums do not match, or that names a path outside the directory, a link or anything but a regular\n" +
			"file, is refused and nothing is left behind. Start dsh on the directory afterwards with a config\n" +
			"whose plugins keep their data where the backed-up host's did.",
		Example: "  dsh restore dsh-backup.tar.gz --data ./restored\n" +
			"  dsh restore dsh-backup.tar.gz --config config.example.yaml",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, _ := cmd.Flags().GetString("data")
			if dir == "" {
				c, err := LoadConfig(cmd)
				if err != nil {
					return err
				}
				if c.Host.Store.Kind == dsh.StorePostgres {
					return restoreDatabase(cmd, c, args[0])
				}
				dir = c.Host.DataDir
			}
			p, err := restoreFiles(cmd, args[0], dir)
			if err == nil {
				p.finish(cmd, dir)
			}
			return err
		},
	}
	cmd.Flags().String("data", "", "the data directory to fill (default: --config's)")
	return cmd
}

// restoreFiles checks that dir is empty, extracts file into its staging
// folder, checks every sum, and only then moves the files into dir.
func restoreFiles(cmd *cobra.Command, file, dir string) (p *progress, err error) {
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	created := false
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("restore: %w", err)
		}
		created = true
	case err != nil:
		return nil, fmt.Errorf("restore: %w", err)
	}
	for _, e := range entries {
		if e.Name() != restoreStaging {
			return nil, fmt.Errorf("restore: %s is not empty (it holds %s): dsh restore fills only an empty data directory", dir, e.Name())
		}
	}
	stage := filepath.Join(dir, restoreStaging)
	if err := os.RemoveAll(stage); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	if err := os.Mkdir(stage, 0o700); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(stage)
			if created {
				_ = os.Remove(dir)
			}
		}
	}()
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p = newProgress(cmd, "restored")
	if err := extract(ctx, file, stage, p); err != nil {
		return nil, fmt.Errorf("restore: %s: %w (nothing was restored)", file, err)
	}
	top, err := os.ReadDir(stage)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	for _, e := range top {
		if err := os.Rename(filepath.Join(stage, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			return nil, fmt.Errorf("restore: %w", err)
		}
	}
	if err := os.Remove(stage); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	syncDir(dir)
	return p, nil
}

// extract writes the files of the archive file into stage, checking the
// header, every path and every sum against the manifest.
func extract(ctx context.Context, file, stage string, p *progress) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return err
		}
		r = gz
	}
	tr := tar.NewReader(r)
	got := map[string]string{}
	var manifest []byte
	for first := true; ; first = false {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted: %w", err)
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("not a readable dsh backup archive: %w", err)
		}
		switch {
		case manifest != nil:
			return fmt.Errorf("%s comes after the manifest: the archive was changed", hdr.Name)
		case hdr.Typeflag != tar.TypeReg:
			return fmt.Errorf("%s is not a regular file (tar type %q): a dsh backup holds only regular files", hdr.Name, hdr.Typeflag)
		case !archivePathOK(hdr.Name):
			return fmt.Errorf("%q is not a plain relative path inside the directory: refused", hdr.Name)
		case first != (hdr.Name == backupHeader):
			return fmt.Errorf("not a dsh backup archive (it must start with %s)", backupHeader)
		case first:
			if err := readHeader(tr); err != nil {
				return err
			}
			continue
		case hdr.Name == backupManifest:
			if manifest, err = io.ReadAll(io.LimitReader(tr, 1<<28)); err != nil {
				return err
			}
			continue
		case got[hdr.Name] != "":
			return fmt.Errorf("%s is in the archive twice", hdr.Name)
		}
		sum, err := writeStaged(stage, hdr, tr)
		if err != nil {
			return fmt.Errorf("%s: %w", hdr.Name, err)
		}
		got[hdr.Name] = sum
		p.add(hdr.Size)
	}
	if _, err := io.Copy(io.Discard, r); err != nil { // the gzip trailer's checksum
		return fmt.Errorf("not a readable dsh backup archive: %w", err)
	}
	if manifest == nil {
		return fmt.Errorf("the archive has no %s: it is incomplete", backupManifest)
	}
	return checkManifest(string(manifest), got)
}

// readHeader checks the archive's first entry.
func readHeader(r io.Reader) error {
	var h struct{ Format string }
	b, err := io.ReadAll(io.LimitReader(r, 1<<16))
	if err == nil {
		err = json.Unmarshal(b, &h)
	}
	if err != nil || h.Format != backupFormat {
		return fmt.Errorf("not a %s archive (its %s says %q)", backupFormat, backupHeader, h.Format)
	}
	return nil
}

// archivePathOK reports whether name is a clean relative path inside
// the target that is not the staging folder: no "..", no absolute path,
// no backslash, no empty or dot component.
func archivePathOK(name string) bool {
	return name != "" && !strings.ContainsAny(name, "\\\x00") && path.Clean(name) == name &&
		filepath.IsLocal(name) && !strings.HasPrefix(name, "/") &&
		name != restoreStaging && !strings.HasPrefix(name, restoreStaging+"/")
}

// writeStaged writes one file under stage (its folders 0700, itself 0600
// and synced, never through a link) with the header's modification time,
// and returns its SHA-256.
func writeStaged(stage string, hdr *tar.Header, r io.Reader) (string, error) {
	dst := filepath.Join(stage, filepath.FromSlash(hdr.Name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return "", err
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(f, h), r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chtimes(dst, hdr.ModTime, hdr.ModTime)
	}
	return hex.EncodeToString(h.Sum(nil)), err
}

// checkManifest compares the sums of the files extracted with the
// manifest's: the same paths, the same sums.
func checkManifest(m string, got map[string]string) error {
	listed := 0
	for line := range strings.Lines(m) {
		sum, name, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "  ")
		if !ok {
			return fmt.Errorf("%s has a line that is not \"<sha256>  <path>\"", backupManifest)
		}
		g, there := got[name]
		switch {
		case !there:
			return fmt.Errorf("%s lists %s, which the archive lacks: it is incomplete or was changed", backupManifest, name)
		case g != sum:
			return fmt.Errorf("the SHA-256 of %s does not match the manifest: the archive is damaged or was changed", name)
		}
		listed++
	}
	if listed != len(got) {
		return fmt.Errorf("the archive holds files %s does not list: it was changed", backupManifest)
	}
	return nil
}
