//go:build !linux

package tui

import "io"

// polledInput: elsewhere Bubble Tea reads the terminal as it is (see
// input_linux.go).
func polledInput(in io.Reader) (io.Reader, func()) { return in, func() {} }
