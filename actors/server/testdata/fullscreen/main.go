// Command fullscreen stands in for a full-screen agent (Claude Code's
// look): it draws on the alternate screen with a fixed input box at the
// bottom, takes the mouse, and scrolls its 300-line transcript with the
// wheel. Tests build it under the name of the agent it plays.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"

	"golang.org/x/sys/unix"
)

func main() {
	stty := exec.Command("stty", "raw", "-echo")
	stty.Stdin = os.Stdin
	stty.Run()
	ws, err := unix.IoctlGetWinsize(0, unix.TIOCGWINSZ)
	if err != nil {
		os.Exit(1)
	}
	rows := int(ws.Row)
	var transcript []string
	for i := range 300 {
		transcript = append(transcript, fmt.Sprintf("transcript-%03d", i))
	}
	footer := []string{"────────────", "❯ ", "────────────", "  ? for shortcuts"}
	region := rows - len(footer)
	offset := 0 // rows scrolled up from the bottom
	draw := func() {
		end := len(transcript) - offset
		var b strings.Builder
		b.WriteString("\x1b[H\x1b[2J")
		b.WriteString(strings.Join(append(append([]string{}, transcript[end-region:end]...), footer...), "\r\n"))
		os.Stdout.WriteString(b.String()) // one write: never half a screen
	}
	os.Stdout.WriteString("\x1b[?1049h\x1b[?1000h\x1b[?1006h")
	draw()
	wheel := regexp.MustCompile(`^\x1b\[<(6[45]);\d+;\d+M`)
	in := bufio.NewReader(os.Stdin)
	var pending []byte
	for {
		c, err := in.ReadByte()
		if err != nil || c == 'q' {
			return
		}
		pending = append(pending, c)
		if m := wheel.FindSubmatch(pending); m != nil {
			if string(m[1]) == "64" {
				offset = min(offset+1, len(transcript)-region)
			} else {
				offset = max(offset-1, 0)
			}
			pending = pending[len(m[0]):]
			draw()
		} else if c != 0x1b && pending[0] != 0x1b || len(pending) > 32 {
			pending = pending[:0]
		}
	}
}
