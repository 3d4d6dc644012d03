package protocol

import (
	"fmt"
	"os"
)

// OpenRegularFile opens a file to read a part of (the tail of a log, say)
// under ReadRegularFile's rule: a regular file or a symlink to one; a
// device or a directory is refused, and a FIFO is refused at once rather
// than waited on.
func OpenRegularFile(path string) (*os.File, error) {
	f, err := openNoWait(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, info.Mode().Type())
	}
	return f, nil
}
