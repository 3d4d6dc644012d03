//go:build unix

package protocol

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// SafeDir checks that a directory holding herdr's socket or files cannot
// be tampered with by another user: a real directory (not a symlink),
// owned by us (or root), and writable by nobody else unless sticky (as
// /tmp is, where others cannot remove or rename our files).
func SafeDir(dir string) error {
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check directory %s: %w", dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("unsafe directory %s: not a directory (a symlink or a file)", dir)
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := int(st.Uid); uid != os.Getuid() && uid != 0 {
		return fmt.Errorf("unsafe directory %s: owned by uid %d, not by you (uid %d)", dir, uid, os.Getuid())
	}
	if info.Mode().Perm()&0o022 != 0 && info.Mode()&os.ModeSticky == 0 {
		return fmt.Errorf("unsafe directory %s: mode %04o lets other users write to it", dir, info.Mode().Perm())
	}
	return nil
}

// OpenPrivateLog opens a log file for appending: its directory is created
// 0700 and must be safe, the file is created 0600, and a symlink at its
// path is refused rather than followed (it could point at any file of
// ours).
func OpenPrivateLog(path string) (*os.File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create log directory: %w", err)
	}
	if err := SafeDir(dir); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open log %s: %w", path, err)
	}
	return f, nil
}

// openNoWait opens path for reading without waiting for a FIFO's writer.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
