//go:build unix

package harness

import (
	"strings"
)

// FindText is the window cell where text starts on screen, or ok false.
func FindText(screen, text string) (x, y int, ok bool) {
	for y, l := range Lines(screen) {
		if i := strings.Index(l, text); i >= 0 {
			return CellsTo(l, i), y, true
		}
	}
	return 0, 0, false
}
