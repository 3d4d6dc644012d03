package protocol

import (
	"fmt"
	"os"
	"path/filepath"
)

// SafeDir accepts any directory on Windows, where a user's profile
// directories are private by their ACLs.
func SafeDir(string) error { return nil }

// OpenPrivateLog opens (creating it 0600 in a 0700 directory) a log file
// for appending.
func OpenPrivateLog(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create log directory: %w", err)
	}
	return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
}

// openNoWait opens path for reading (Windows has no FIFOs at paths).
func openNoWait(path string) (*os.File, error) { return os.Open(path) }
