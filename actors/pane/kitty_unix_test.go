//go:build unix

package pane

import (
	"testing"

	"golang.org/x/sys/unix"
)

// A console for a pane with graphics reports its size in pixels too, in
// the emulator's cells, after a resize as at the start; one without
// reports none.
func TestConsolePixels(t *testing.T) {
	size := func(c console) *unix.Winsize {
		t.Helper()
		rc, err := c.(*ptyConsole).ptmx.SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var ws *unix.Winsize
		var ioErr error
		if err := rc.Control(func(fd uintptr) { ws, ioErr = unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ) }); err != nil || ioErr != nil {
			t.Fatal(err, ioErr)
		}
		return ws
	}
	for _, pixels := range []bool{true, false} {
		c, err := startConsole(consoleSpec{Argv: []string{"/bin/sh", "-c", "sleep 5"}, Cols: 80, Rows: 24, Pixels: pixels, reaper: newReaper()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Hangup(); c.Kill() })
		want := func(cols, rows int) {
			t.Helper()
			ws := size(c)
			wx, wy := 0, 0
			if pixels {
				wx, wy = cols*8, rows*16
			}
			if int(ws.Col) != cols || int(ws.Row) != rows || int(ws.Xpixel) != wx || int(ws.Ypixel) != wy {
				t.Fatalf("pixels=%v: winsize %+v, want %dx%d cells, %dx%d px", pixels, ws, cols, rows, wx, wy)
			}
		}
		want(80, 24)
		if err := c.Resize(100, 30); err != nil {
			t.Fatal(err)
		}
		want(100, 30)
	}
}
