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

// maxFileBytes bounds every agent file herdr reads (a settings file, a
// hook script it compares): real ones are kilobytes.
const maxFileBytes = 8 << 20

// writeFile writes data to path atomically (temp file, rename) unless the
// file already holds exactly data; it reports whether it wrote. An existing
// file keeps its mode; a new one gets mode.
//
// A symlinked file (a dotfiles checkout) is written through the link, so
// the link stays. A dangling link is refused: its target's absence means
// the setup it belongs to (a checkout not cloned, a volume not mounted)
// is not there, and writing would make a file, and folders, wherever the
// link points. The user decides: create the target or remove the link.
func writeFile(path string, data []byte, mode fs.FileMode) (bool, error) {
	path, err := throughLinks(path)
	if err != nil {
		return false, err
	}
	old, err := protocol.ReadRegularFile(path, maxFileBytes)
	if err == nil && bytes.Equal(old, data) {
		if mode&0o100 != 0 {
			return false, ensureExecutable(path)
		}
		return false, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err // names the path
	}
	if st, statErr := os.Stat(path); statErr == nil {
		mode = st.Mode().Perm() | mode&0o111
	}
	if err := protocol.WriteFileAtomic(path, data, mode); err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	return true, nil
}

// throughLinks is the file a write to path lands on: path itself when it
// is no symlink (or absent), else the existing file the links lead to; a
// link that leads nowhere is an error.
func throughLinks(path string) (string, error) {
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		target, _ := os.Readlink(path)
		return "", fmt.Errorf("%s is a symlink to %s, which does not exist (%v); herdr does not write through a dangling link: create its target or remove the link", path, target, err)
	}
	return real, nil
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
// Only a regular file (or a link to one) of at most maxFileBytes is read:
// a device or a FIFO there is an error at once, never read or waited on.
func readOptional(path string) ([]byte, error) {
	data, err := protocol.ReadRegularFile(path, maxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err // names the path
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
