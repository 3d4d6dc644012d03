package config

import "os"

// openNonBlocking opens path for reading (Windows has no FIFOs at paths).
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
