package rendercheck

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/dshgo/dsh/internal/e2e/restorecheck"
)

// The page and its module; see harness/entry.js.
//
//go:embed harness/index.html harness/entry.js
var harnessFiles embed.FS

// ExcalidrawVersion is the version of @excalidraw/excalidraw the harness
// renders with.
const ExcalidrawVersion = "0.18.1"

// modulesDir is the folder of the pinned Node packages (installed by
// restorecheck's setup.sh, or make node-deps); a variable for the test of
// what happens without them.
var modulesDir = filepath.Join(restorecheck.Dir(), "node_modules")

func nodeModules() string { return modulesDir }

// distDir is Excalidraw's production build, whose fonts the page loads.
func distDir() string {
	return filepath.Join(nodeModules(), "@excalidraw", "excalidraw", "dist", "prod")
}

// packages are the Node packages the bundle is made of (React is a peer
// dependency of Excalidraw that npm installs beside it) or made with.
var packages = []string{"@excalidraw/excalidraw", "react", "react-dom", "esbuild"}

// checkPackages says which of the packages is missing, or has the wrong
// Excalidraw version; "" when all are there.
func checkPackages() (string, error) {
	for _, p := range packages {
		b, err := os.ReadFile(filepath.Join(nodeModules(), p, "package.json"))
		if err != nil {
			return p + " is not installed in " + nodeModules(), nil
		}
		if p == "@excalidraw/excalidraw" {
			var pkg struct{ Version string }
			if err := json.Unmarshal(b, &pkg); err != nil {
				return "", fmt.Errorf("%s/package.json: %w", p, err)
			}
			if pkg.Version != ExcalidrawVersion {
				return "", fmt.Errorf("%s %s is installed in %s, the harness needs %s", p, pkg.Version, nodeModules(), ExcalidrawVersion)
			}
		}
	}
	return "", nil
}

// esbuildArgs bundle entry.js for the browser: ES modules with code
// splitting, so Excalidraw's dynamic imports (its font-subsetting worker,
// mermaid) stay chunks of their own and its worker gets a URL of its own,
// as in an app built with a bundler. React's CommonJS entry points choose
// their build from process.env.NODE_ENV, which a browser does not have:
// it is defined as "production", as Excalidraw's dist/prod expects.
// Excalidraw's CSS is not needed to export.
var esbuildArgs = []string{
	"--bundle", "--format=esm", "--splitting", "--platform=browser", "--target=es2022",
	`--define:process.env.NODE_ENV="production"`,
	"--loader:.css=empty",
	"--entry-names=[name]", "--chunk-names=chunk-[hash]",
	"--log-level=warning",
}

// bundle returns the folder of the built page module, building it with
// the installed esbuild the first time. The build is cached under
// node_modules/.cache (git ignores node_modules), keyed by entry.js, the
// arguments and the installed packages' manifests, so a reinstall or an
// edit rebuilds it; concurrent test processes each build and the first
// rename wins.
func bundle() (string, error) {
	entry, err := harnessFiles.ReadFile("harness/entry.js")
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write(entry)
	for _, a := range esbuildArgs {
		h.Write([]byte(a + "\x00"))
	}
	for _, p := range packages {
		b, err := os.ReadFile(filepath.Join(nodeModules(), p, "package.json"))
		if err != nil {
			return "", err
		}
		h.Write(b)
	}
	cache := filepath.Join(nodeModules(), ".cache")
	dir := filepath.Join(cache, "rendercheck-"+hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(filepath.Join(dir, "entry.js")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(cache, "rendercheck-tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "src", "entry.js")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(src, entry, 0o644); err != nil {
		return "", err
	}
	out := filepath.Join(tmp, "out")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := append([]string{src, "--outdir=" + out}, esbuildArgs...)
	cmd := exec.CommandContext(ctx, filepath.Join(nodeModules(), "esbuild", "bin", "esbuild"), args...)
	// entry.js lives outside node_modules' tree: NODE_PATH lets esbuild
	// resolve the packages from there.
	cmd.Env = append(os.Environ(), "NODE_PATH="+nodeModules())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("esbuild: %v\n%s", err, stderr.Bytes())
	}
	if err := os.Rename(out, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "entry.js")); serr == nil {
			return dir, nil // another process built it first
		}
		return "", errors.Join(errors.New("rendercheck: caching the bundle"), err)
	}
	removeStale(cache, dir)
	return dir, nil
}

// removeStale removes the bundles of other versions (of entry.js or the
// packages) that nothing has built for an hour: a process still using one
// has read it into its server's answers long before.
func removeStale(cache, keep string) {
	old, _ := filepath.Glob(filepath.Join(cache, "rendercheck-*"))
	for _, d := range old {
		st, err := os.Stat(d)
		if d == keep || err != nil || time.Since(st.ModTime()) < time.Hour {
			continue
		}
		os.RemoveAll(d)
	}
}
