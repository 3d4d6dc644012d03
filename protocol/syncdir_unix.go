//go:build unix

package protocol

import (
	"errors"
	"os"
	"syscall"
)

// syncDir makes a folder's entries (a file just renamed into it) durable.
// A file system that cannot sync a folder (EINVAL) has nothing to sync.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil
	}
	return err
}
