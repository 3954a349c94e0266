package connection

import (
	"errors"
	"os"
	"sync"

	"go.uber.org/zap"
)

// tokenWatch is the running server's view of the token file. It stats the
// file on every lookup and re-reads it only when it changed, so that
// `dsh token revoke` takes effect on the next request without a restart or
// a file-watcher goroutine. A stat is cheap next to an HTTP request.
//
// "Changed" includes a different inode: the store replaces the file by
// rename, so even an edit within the filesystem's mtime granularity that
// keeps the size is noticed.
type tokenWatch struct {
	path string
	log  *zap.Logger

	mu      sync.Mutex
	info    os.FileInfo // nil when the file did not exist at last look
	records []TokenRecord
}

func newTokenWatch(path string, log *zap.Logger) (*tokenWatch, error) {
	w := &tokenWatch{path: path, log: log}
	// Load once up front so a broken file is reported at startup rather
	// than showing up as mysterious 401s.
	if _, err := w.refreshLocked(); err != nil {
		return nil, err
	}
	return w, nil
}

// current returns the records as of now. On a read or parse error it returns
// none: an unreadable token file must lock clients out, not let them in.
func (w *tokenWatch) current() []TokenRecord {
	w.mu.Lock()
	defer w.mu.Unlock()
	recs, err := w.refreshLocked()
	if err != nil {
		w.log.Warn("token file unreadable; refusing all bearer tokens", zap.String("path", w.path), zap.Error(err))
		return nil
	}
	return recs
}

func (w *tokenWatch) refreshLocked() ([]TokenRecord, error) {
	fi, err := os.Stat(w.path)
	if errors.Is(err, os.ErrNotExist) {
		if w.info != nil {
			w.log.Info("token file removed; no bearer tokens accepted", zap.String("path", w.path))
		}
		w.info, w.records = nil, nil
		return nil, nil
	}
	if err != nil {
		w.info, w.records = nil, nil
		return nil, err
	}
	if w.info != nil && os.SameFile(w.info, fi) && w.info.ModTime().Equal(fi.ModTime()) && w.info.Size() == fi.Size() {
		return w.records, nil
	}
	data, err := os.ReadFile(w.path)
	if err != nil {
		w.info, w.records = nil, nil
		return nil, err
	}
	recs, err := parseTokenFile(w.path, data)
	if err != nil {
		w.info, w.records = nil, nil
		return nil, err
	}
	w.info, w.records = fi, recs
	w.log.Debug("token file loaded", zap.String("path", w.path), zap.Int("tokens", len(recs)))
	return recs, nil
}
