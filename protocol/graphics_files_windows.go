package protocol

import "errors"

// PrepareGraphicsFileDir: file frames need a Unix server (owner and mode
// checks), so Windows offers none.
func PrepareGraphicsFileDir(string) error {
	return errors.New("file frames need a Unix server")
}

// ReadGraphicsFrameFile refuses every file frame on Windows.
func ReadGraphicsFrameFile(_, path string, _ int64) ([]byte, error) {
	return nil, Errorf(CodeInvalidFrameFile, "file frame %s: file frames need a Unix server", path)
}
