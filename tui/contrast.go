package tui

import "math"

// WCAG 2 contrast: the themes' text is drawn so that it reads on its
// background (AA: 4.5:1 for text).

// minContrast is WCAG AA's least contrast ratio for text.
const minContrast = 4.5

// luminance is a true colour's relative luminance (WCAG 2).
func luminance(c color) float64 {
	lin := func(v uint32) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(uint32(c>>16&0xff)) + 0.7152*lin(uint32(c>>8&0xff)) + 0.0722*lin(uint32(c&0xff))
}

// contrastRatio is the WCAG contrast ratio of two true colours, 1 to 21.
func contrastRatio(a, b color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// readable is fg when it reads on bg (minContrast), else the first of the
// theme's own text colours that does, else black or white, whichever reads
// better (one of them always does: at worst 4.58:1). Colours that are not
// true colours (the terminal's palette) are kept: their values are the
// terminal's.
func readable(fg, bg color, candidates ...color) color {
	isRGB := func(c color) bool { return c&^0xffffff == colorRGB }
	if !isRGB(fg) || !isRGB(bg) || contrastRatio(fg, bg) >= minContrast {
		return fg
	}
	for _, c := range candidates {
		if isRGB(c) && contrastRatio(c, bg) >= minContrast {
			return c
		}
	}
	black, white := rgb(0, 0, 0), rgb(255, 255, 255)
	if contrastRatio(black, bg) >= contrastRatio(white, bg) {
		return black
	}
	return white
}
