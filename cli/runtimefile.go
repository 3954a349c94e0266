package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dshgo/dsh/internal/statefile"
)

// RuntimeInfo is what `dsh serve` leaves in its data directory so that
// `dsh plugins …`, `dsh login` and `dsh sessions …` on the same machine can
// find and authenticate to it without the operator copying a token around
// (Jupyter keeps a similar file). The file is private to the user (0600).
type RuntimeInfo struct {
	URL       string    `json:"url"`
	PID       int       `json:"pid"`
	Token     string    `json:"token"`
	StartedAt time.Time `json:"startedAt"`
}

// RuntimeFileName is the file's name inside the data directory.
const RuntimeFileName = "runtime.json"

// ErrNoHost is returned (wrapped) by ReadRuntimeFile when the directory
// has no runtime file: no `dsh serve` is running on it.
var ErrNoHost = errors.New("no running host")

// WriteRuntimeFile writes info atomically into dir.
func WriteRuntimeFile(dir string, info RuntimeInfo) (string, error) {
	path := filepath.Join(dir, RuntimeFileName)
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return "", err
	}
	if err := statefile.WriteAtomic(path, b, 0o600); err != nil {
		return "", fmt.Errorf("runtime file: %w", err)
	}
	return path, nil
}

// ReadRuntimeFile reads the file a running host left in dir.
func ReadRuntimeFile(dir string) (RuntimeInfo, error) {
	var info RuntimeInfo
	b, err := os.ReadFile(filepath.Join(dir, RuntimeFileName))
	if errors.Is(err, os.ErrNotExist) {
		return info, fmt.Errorf("%w found in %s (start one with `dsh serve`)", ErrNoHost, dir)
	}
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return info, fmt.Errorf("runtime file: %w", err)
	}
	return info, nil
}

// RemoveRuntimeFile deletes the file if it is still the one this process
// wrote.
func RemoveRuntimeFile(dir string, pid int) {
	if info, err := ReadRuntimeFile(dir); err == nil && info.PID == pid {
		_ = os.Remove(filepath.Join(dir, RuntimeFileName))
	}
}
