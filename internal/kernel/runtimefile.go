package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// RuntimeInfo is what `dsh serve` leaves in its data directory so that
// `dsh plugins …` on the same machine can find and authenticate to it
// without the operator copying a token around (Jupyter keeps a similar
// file). The file is private to the user (0600).
type RuntimeInfo struct {
	URL       string    `json:"url"`
	PID       int       `json:"pid"`
	Token     string    `json:"token"`
	StartedAt time.Time `json:"startedAt"`
}

// RuntimeFileName is the file's name inside the data directory.
const RuntimeFileName = "runtime.json"

// WriteRuntimeFile writes info atomically into dir.
func WriteRuntimeFile(dir string, info RuntimeInfo) (string, error) {
	path := filepath.Join(dir, RuntimeFileName)
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".runtime-*.json")
	if err != nil {
		return "", fmt.Errorf("runtime file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return "", err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	return path, os.Rename(tmp.Name(), path)
}

// ReadRuntimeFile reads the file a running host left in dir.
func ReadRuntimeFile(dir string) (RuntimeInfo, error) {
	var info RuntimeInfo
	b, err := os.ReadFile(filepath.Join(dir, RuntimeFileName))
	if errors.Is(err, os.ErrNotExist) {
		return info, fmt.Errorf("no running host found in %s (start one with `dsh serve`)", dir)
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
