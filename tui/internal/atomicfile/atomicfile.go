// Package atomicfile writes a file whole or not at all: the bytes go to a
// temporary file beside it, which is then renamed over the path, so that a
// crash mid-write leaves the old file (or none) and never half of the new.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to path, creating its directory if needed.
func Write(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
