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
// /tmp is, where others cannot remove or rename our files). Every
// directory above it must pass the same test — whoever may rename an
// ancestor can swap the whole tree under it — except that a symlink on
// the way (macOS's /tmp) is allowed when it is ours or root's, and the
// directories it leads to are then checked as well.
func SafeDir(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("check directory %s: %w", dir, err)
	}
	info, err := os.Lstat(abs)
	if err != nil {
		return fmt.Errorf("check directory %s: %w", dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("unsafe directory %s: not a directory (a symlink or a file)", dir)
	}
	if err := safeOwnerAndMode(abs, info); err != nil {
		return err
	}
	if err := safeAncestors(filepath.Dir(abs)); err != nil {
		return fmt.Errorf("%w (above %s)", err, dir)
	}
	return nil
}

// safeAncestors checks dir and every directory above it up to the root.
func safeAncestors(dir string) error {
	linked := false
	for p := dir; ; p = filepath.Dir(p) {
		info, err := os.Lstat(p)
		if err != nil {
			return fmt.Errorf("check directory %s: %w", p, err)
		}
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			// A link's own mode means nothing; who may replace it is its
			// directory's business, checked next round.
			if err := safeOwner(p, info); err != nil {
				return err
			}
			linked = true
		case !info.IsDir():
			return fmt.Errorf("unsafe directory %s: not a directory", p)
		default:
			if err := safeOwnerAndMode(p, info); err != nil {
				return err
			}
		}
		if filepath.Dir(p) == p {
			break
		}
	}
	if !linked {
		return nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("check directory %s: %w", dir, err)
	}
	if real == dir {
		return nil
	}
	return safeAncestors(real) // link-free: no further round
}

// safeOwner refuses a file owned by anyone but us or root.
func safeOwner(path string, info os.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := int(st.Uid); uid != os.Getuid() && uid != 0 {
		return fmt.Errorf("unsafe directory %s: owned by uid %d, not by you (uid %d) or root", path, uid, os.Getuid())
	}
	return nil
}

// safeOwnerAndMode is safeOwner, and no write access for others unless
// the directory is sticky.
func safeOwnerAndMode(path string, info os.FileInfo) error {
	if err := safeOwner(path, info); err != nil {
		return err
	}
	if info.Mode().Perm()&0o022 != 0 && info.Mode()&os.ModeSticky == 0 {
		return fmt.Errorf("unsafe directory %s: mode %04o lets other users write to it", path, info.Mode().Perm())
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
