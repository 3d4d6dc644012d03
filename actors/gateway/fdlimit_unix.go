//go:build !windows

package gateway

import (
	"errors"
	"syscall"
)

// outOfFDs reports whether an accept failed for want of a file descriptor.
func outOfFDs(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}
