package harness

import (
	"strconv"
)

// Output is what the client wrote to its terminal so far, escape sequences
// included.
func (c *TUI) Output() string {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return string(c.raw)
}

// SgrMouse is an SGR mouse report at window cell (x, y), 0-based.
func SgrMouse(button, x, y int, release bool) string {
	end := "M"
	if release {
		end = "m"
	}
	return "\x1b[<" + strconv.Itoa(button) + ";" + strconv.Itoa(x+1) + ";" + strconv.Itoa(y+1) + end
}
