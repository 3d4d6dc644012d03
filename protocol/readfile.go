package protocol

import (
	"fmt"
	"io"
)

// ReadRegularFile reads a file a person or a program put in our way (a
// config, a manifest, a settings or session file): it must be a regular
// file (a symlink to one is followed) of at most max bytes. A device such as
// /dev/zero, a FIFO or a directory is refused at once, never read or waited
// on, and an oversized file is refused, never grown into memory. A missing
// file's error is the open's, so errors.Is(err, fs.ErrNotExist) holds.
func ReadRegularFile(path string, max int64) ([]byte, error) {
	f, err := openNoWait(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, info.Mode().Type())
	}
	if info.Size() > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, max)
	}
	return data, nil
}
