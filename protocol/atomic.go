package protocol

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces path with data: a temporary file beside the
// target, synced, given perm, then renamed over it, so a reader (or a
// crash) sees the old content or the new, never half of one. A symlinked
// path is followed — the link stays and its target is replaced, even a
// target that does not exist yet — and missing folders are made (0700).
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	target, err := followLinks(path)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return err
	}
	return replaceFile(target, data, perm)
}

// WriteOwnFile replaces a file herdr keeps for itself in a folder of its
// own (the session file, the dashboard token): atomically as
// WriteFileAtomic, but its folder (made 0700 when missing) must be safe
// (SafeDir), and a symlink at path is replaced, never followed: a link
// planted there must not steer the write onto another file.
func WriteOwnFile(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := SafeDir(dir); err != nil {
		return err
	}
	return replaceFile(path, data, perm)
}

// replaceFile writes a temporary file beside target (created exclusively,
// so never through a link), syncs it, gives it perm and renames it over
// target (which replaces a link at target rather than following it), then
// syncs the folder, so the rename itself survives a crash of the machine.
func replaceFile(target string, data []byte, perm fs.FileMode) error {
	if err := ReplaceFileInBatch(target, data, perm); err != nil {
		return err
	}
	return syncDir(filepath.Dir(target))
}

// ReplaceFileInBatch is replaceFile without the folder's sync: a writer of
// many files in one folder (the task store) syncs the folder once for the
// batch, after its last rename.
func ReplaceFileInBatch(target string, data []byte, perm fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), perm)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// followLinks resolves a chain of symlinks, allowing a dangling last one.
func followLinks(path string) (string, error) {
	for range 16 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("%s: too many symlinks", path)
}
