package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/herdr-go/herdr/protocol"
)

// writeFile writes data to path atomically (temp file, rename) unless the
// file already holds exactly data; it reports whether it wrote. An existing
// file keeps its mode; a new one gets mode.
//
// A symlinked file (a dotfiles checkout) is written through the link, so
// the link stays.
func writeFile(path string, data []byte, mode fs.FileMode) (bool, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	old, err := os.ReadFile(path)
	if err == nil && bytes.Equal(old, data) {
		if mode&0o100 != 0 {
			return false, ensureExecutable(path)
		}
		return false, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	if st, statErr := os.Stat(path); statErr == nil {
		mode = st.Mode().Perm() | mode&0o111
	}
	if err := protocol.WriteFileAtomic(path, data, mode); err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	return true, nil
}

// ensureExecutable adds the execute bits to an existing file.
func ensureExecutable(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.Mode().Perm()&0o111 == 0o111 {
		return nil
	}
	return os.Chmod(path, st.Mode().Perm()|0o111)
}

// readOptional returns a file's contents, or nil when it does not exist.
func readOptional(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

// removeFile deletes path and reports whether it existed.
func removeFile(path string) (bool, error) {
	err := os.Remove(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("remove %s: %w", path, err)
	}
	return true, nil
}

// isDir reports whether path is an existing directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
