//go:build unix

package protocol

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// PrepareGraphicsFileDir makes dir, the folder file frames must be in, a
// private directory of ours (0700; created with its parents when missing).
func PrepareGraphicsFileDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !info.IsDir() || !ok || int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s is not a directory of ours", dir)
	}
	return nil
}

// ReadGraphicsFrameFile reads a file frame's pixels: path must name a
// file directly in dir, a regular file (never followed through a link)
// owned by us that no one else may write, exactly size bytes long, and
// still that long once read (a file growing under the read is refused).
// Its errors are CodeInvalidFrameFile.
func ReadGraphicsFrameFile(dir, path string, size int64) ([]byte, error) {
	bad := func(format string, args ...any) ([]byte, error) {
		return nil, Errorf(CodeInvalidFrameFile, "file frame %s: %s", path, fmt.Sprintf(format, args...))
	}
	if dir == "" {
		return bad("this server offers no file frame directory")
	}
	clean := filepath.Clean(path)
	if filepath.Dir(clean) != filepath.Clean(dir) || clean != path {
		return bad("must be directly in %s", dir)
	}
	// O_NONBLOCK: a FIFO planted here answers at once instead of holding
	// the stream's reader.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return bad("%v", errors.Unwrap(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return bad("%v", err)
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case !info.Mode().IsRegular():
		return bad("not a regular file")
	case !ok || int(st.Uid) != os.Getuid():
		return bad("not owned by this server's user")
	case info.Mode().Perm()&0o022 != 0:
		return bad("writable by others (mode %o)", info.Mode().Perm())
	case info.Size() != size:
		return bad("%d bytes, want width×height×4 = %d", info.Size(), size)
	}
	data := make([]byte, size+1)
	n, err := io.ReadFull(f, data)
	if int64(n) != size || (err != nil && !errors.Is(err, io.ErrUnexpectedEOF)) {
		return bad("changed while read (%d bytes)", n)
	}
	return data[:size], nil
}
