package tui

import (
	"strconv"
	"strings"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// palette is a theme's colour tokens (Herdr's names, [theme.custom] keys).
type palette struct {
	accent, panelBg, sidebarBg, surface0, surface1, surfaceDim, overlay0, overlay1 color
	text, subtext0, mauve, green, yellow, red, blue, teal, peach                   color
}

// rgb is a true colour.
func rgb(r, g, b uint8) color { return colorRGB | color(r)<<16 | color(g)<<8 | color(b) }

// builtinThemes are Herdr's built-in palettes by canonical name; "terminal"
// uses the outer terminal's own colours (0 is its default).
var builtinThemes = map[string]palette{
	"catppuccin": {rgb(137, 180, 250), rgb(24, 24, 37), 0, rgb(49, 50, 68), rgb(69, 71, 90), rgb(30, 30, 46), rgb(108, 112, 134), rgb(127, 132, 156),
		rgb(205, 214, 244), rgb(166, 173, 200), rgb(203, 166, 247), rgb(166, 227, 161), rgb(249, 226, 175), rgb(243, 139, 168), rgb(137, 180, 250), rgb(148, 226, 213), rgb(250, 179, 135)},
	"catppuccin-latte": {rgb(30, 102, 245), rgb(239, 241, 245), 0, rgb(204, 208, 218), rgb(188, 192, 204), rgb(230, 233, 239), rgb(156, 160, 176), rgb(140, 143, 161),
		rgb(76, 79, 105), rgb(108, 111, 133), rgb(136, 57, 239), rgb(64, 160, 43), rgb(223, 142, 29), rgb(210, 15, 57), rgb(30, 102, 245), rgb(23, 146, 153), rgb(254, 100, 11)},
	"terminal": {pal(4), 0, 0, 0, pal(8), pal(8), pal(7), pal(15),
		0, pal(7), pal(7), pal(2), pal(3), pal(9), pal(4), pal(6), pal(3)},
	"tokyo-night": {rgb(122, 162, 247), rgb(26, 27, 38), 0, rgb(36, 40, 59), rgb(65, 72, 104), rgb(26, 27, 38), rgb(86, 95, 137), rgb(105, 113, 150),
		rgb(192, 202, 245), rgb(169, 177, 214), rgb(187, 154, 247), rgb(158, 206, 106), rgb(224, 175, 104), rgb(247, 118, 142), rgb(122, 162, 247), rgb(125, 207, 255), rgb(255, 158, 100)},
	"tokyo-night-day": {rgb(46, 125, 233), rgb(225, 226, 231), 0, rgb(196, 200, 218), rgb(168, 174, 203), rgb(210, 211, 218), rgb(137, 144, 179), rgb(104, 112, 154),
		rgb(55, 96, 191), rgb(97, 114, 176), rgb(120, 71, 189), rgb(88, 117, 57), rgb(140, 108, 62), rgb(245, 42, 101), rgb(46, 125, 233), rgb(17, 140, 116), rgb(177, 92, 0)},
	"dracula": {rgb(189, 147, 249), rgb(40, 42, 54), 0, rgb(68, 71, 90), rgb(98, 114, 164), rgb(40, 42, 54), rgb(98, 114, 164), rgb(130, 140, 180),
		rgb(248, 248, 242), rgb(210, 210, 220), rgb(255, 121, 198), rgb(80, 250, 123), rgb(241, 250, 140), rgb(255, 85, 85), rgb(139, 233, 253), rgb(139, 233, 253), rgb(255, 184, 108)},
	"nord": {rgb(136, 192, 208), rgb(46, 52, 64), 0, rgb(59, 66, 82), rgb(67, 76, 94), rgb(46, 52, 64), rgb(76, 86, 106), rgb(100, 110, 130),
		rgb(236, 239, 244), rgb(216, 222, 233), rgb(180, 142, 173), rgb(163, 190, 140), rgb(235, 203, 139), rgb(191, 97, 106), rgb(129, 161, 193), rgb(143, 188, 187), rgb(208, 135, 112)},
	"gruvbox": {rgb(215, 153, 33), rgb(40, 40, 40), 0, rgb(60, 56, 54), rgb(80, 73, 69), rgb(40, 40, 40), rgb(146, 131, 116), rgb(168, 153, 132),
		rgb(235, 219, 178), rgb(213, 196, 161), rgb(211, 134, 155), rgb(184, 187, 38), rgb(250, 189, 47), rgb(251, 73, 52), rgb(131, 165, 152), rgb(142, 192, 124), rgb(254, 128, 25)},
	"gruvbox-light": {rgb(7, 102, 120), rgb(251, 241, 199), 0, rgb(235, 219, 178), rgb(213, 196, 161), rgb(242, 229, 188), rgb(146, 131, 116), rgb(124, 111, 100),
		rgb(60, 56, 54), rgb(80, 73, 69), rgb(143, 63, 113), rgb(121, 116, 14), rgb(181, 118, 20), rgb(157, 0, 6), rgb(7, 102, 120), rgb(66, 123, 88), rgb(175, 58, 3)},
	"one-dark": {rgb(97, 175, 239), rgb(40, 44, 52), 0, rgb(44, 49, 58), rgb(62, 68, 81), rgb(40, 44, 52), rgb(92, 99, 112), rgb(115, 122, 135),
		rgb(171, 178, 191), rgb(150, 156, 168), rgb(198, 120, 221), rgb(152, 195, 121), rgb(229, 192, 123), rgb(224, 108, 117), rgb(97, 175, 239), rgb(86, 182, 194), rgb(209, 154, 102)},
	"one-light": {rgb(64, 120, 242), rgb(250, 250, 250), 0, rgb(240, 240, 241), rgb(229, 229, 230), rgb(245, 245, 246), rgb(160, 161, 167), rgb(104, 107, 119),
		rgb(56, 58, 66), rgb(104, 107, 119), rgb(166, 38, 164), rgb(80, 161, 79), rgb(193, 132, 1), rgb(228, 86, 73), rgb(64, 120, 242), rgb(1, 132, 188), rgb(152, 104, 1)},
	"solarized": {rgb(38, 139, 210), rgb(0, 43, 54), 0, rgb(7, 54, 66), rgb(88, 110, 117), rgb(0, 43, 54), rgb(88, 110, 117), rgb(101, 123, 131),
		rgb(147, 161, 161), rgb(131, 148, 150), rgb(211, 54, 130), rgb(133, 153, 0), rgb(181, 137, 0), rgb(220, 50, 47), rgb(38, 139, 210), rgb(42, 161, 152), rgb(203, 75, 22)},
	"solarized-light": {rgb(38, 139, 210), rgb(253, 246, 227), 0, rgb(238, 232, 213), rgb(147, 161, 161), rgb(238, 232, 213), rgb(147, 161, 161), rgb(88, 110, 117),
		rgb(101, 123, 131), rgb(131, 148, 150), rgb(211, 54, 130), rgb(133, 153, 0), rgb(181, 137, 0), rgb(220, 50, 47), rgb(38, 139, 210), rgb(42, 161, 152), rgb(203, 75, 22)},
	"kanagawa": {rgb(126, 156, 216), rgb(31, 31, 40), 0, rgb(42, 42, 55), rgb(54, 54, 70), rgb(31, 31, 40), rgb(114, 113, 105), rgb(135, 134, 125),
		rgb(220, 215, 186), rgb(200, 195, 170), rgb(149, 127, 184), rgb(118, 148, 106), rgb(192, 163, 110), rgb(195, 64, 67), rgb(126, 156, 216), rgb(127, 180, 202), rgb(255, 160, 102)},
	"kanagawa-lotus": {rgb(77, 105, 155), rgb(242, 236, 188), 0, rgb(220, 213, 172), rgb(201, 203, 209), rgb(213, 206, 163), rgb(160, 156, 172), rgb(138, 137, 128),
		rgb(84, 84, 100), rgb(67, 67, 108), rgb(98, 76, 131), rgb(111, 137, 78), rgb(119, 113, 63), rgb(200, 64, 83), rgb(77, 105, 155), rgb(78, 140, 162), rgb(204, 109, 0)},
	"rose-pine": {rgb(196, 167, 231), rgb(25, 23, 36), 0, rgb(31, 29, 46), rgb(38, 35, 58), rgb(38, 35, 58), rgb(110, 106, 134), rgb(144, 140, 170),
		rgb(224, 222, 244), rgb(200, 197, 220), rgb(196, 167, 231), rgb(49, 116, 143), rgb(246, 193, 119), rgb(235, 111, 146), rgb(49, 116, 143), rgb(156, 207, 216), rgb(234, 154, 151)},
	"rose-pine-dawn": {rgb(144, 122, 169), rgb(250, 244, 237), 0, rgb(242, 233, 225), rgb(255, 250, 243), rgb(242, 233, 225), rgb(152, 147, 165), rgb(121, 117, 147),
		rgb(70, 66, 97), rgb(121, 117, 147), rgb(144, 122, 169), rgb(40, 105, 131), rgb(234, 157, 52), rgb(180, 99, 122), rgb(40, 105, 131), rgb(86, 148, 159), rgb(215, 130, 126)},
	"vesper": {rgb(255, 199, 153), rgb(26, 26, 26), 0, rgb(35, 35, 35), rgb(40, 40, 40), rgb(16, 16, 16), rgb(92, 92, 92), rgb(126, 126, 126),
		rgb(255, 255, 255), rgb(160, 160, 160), rgb(255, 209, 168), rgb(153, 255, 228), rgb(255, 199, 153), rgb(255, 128, 128), rgb(176, 176, 176), rgb(102, 221, 204), rgb(255, 199, 153)},
}

// token returns the palette field a [theme.custom] key names.
func (p *palette) token(name string) *color {
	switch name {
	case "accent":
		return &p.accent
	case "panel_bg":
		return &p.panelBg
	case "sidebar_bg":
		return &p.sidebarBg
	case "surface0":
		return &p.surface0
	case "surface1":
		return &p.surface1
	case "surface_dim":
		return &p.surfaceDim
	case "overlay0":
		return &p.overlay0
	case "overlay1":
		return &p.overlay1
	case "text":
		return &p.text
	case "subtext0":
		return &p.subtext0
	case "mauve":
		return &p.mauve
	case "green":
		return &p.green
	case "yellow":
		return &p.yellow
	case "red":
		return &p.red
	case "blue":
		return &p.blue
	case "teal":
		return &p.teal
	case "peach":
		return &p.peach
	}
	return nil
}

// namedColour maps the colour names config accepts to palette indexes.
var namedColour = map[string]color{
	"black": pal(0), "red": pal(1), "green": pal(2), "yellow": pal(3), "blue": pal(4), "magenta": pal(5),
	"purple": pal(5), "cyan": pal(6), "gray": pal(7), "grey": pal(7), "darkgray": pal(8), "darkgrey": pal(8),
	"lightred": pal(9), "lightgreen": pal(10), "lightyellow": pal(11), "lightblue": pal(12),
	"lightmagenta": pal(13), "lightcyan": pal(14), "white": pal(15),
	"reset": 0, "default": 0, "none": 0, "transparent": 0,
}

// configColour reads a colour config validated: #rgb, #rrggbb, rgb(r,g,b)
// or a name.
func configColour(s string) (color, bool) {
	c := strings.ToLower(strings.TrimSpace(s))
	if v, ok := namedColour[c]; ok {
		return v, true
	}
	if inner, ok := strings.CutPrefix(c, "rgb("); ok {
		parts := strings.Split(strings.TrimSuffix(inner, ")"), ",")
		if len(parts) != 3 {
			return 0, false
		}
		var v [3]uint8
		for i, p := range parts {
			n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 8)
			if err != nil {
				return 0, false
			}
			v[i] = uint8(n)
		}
		return rgb(v[0], v[1], v[2]), true
	}
	return hexColor(c)
}

// theme is the palette the chrome is drawn with, and the styles made of it.
type theme struct {
	p       palette
	symbols bool // status_indicators = "symbols"

	name, dim, header, selected, border, focus, tab, tabOn, bar, mode, toast, match, selection, diag cellStyle
	barLabel                                                                                         cellStyle // the workspace's name on the tab bar without a sidebar
}

// newTheme builds the theme config asks for. truecolor says whether the
// outer terminal shows 24-bit colours; when it does not, every colour of
// the theme is drawn as the nearest of the 256-colour palette.
func newTheme(cfg config.Config, truecolor bool) *theme {
	p, ok := builtinThemes[cfg.Theme.Name]
	if !ok {
		p = builtinThemes["catppuccin"]
	}
	for k, v := range cfg.Theme.Custom {
		if c, ok := configColour(v); ok {
			if f := p.token(k); f != nil {
				*f = c
			}
		}
	}
	// Herdr's older accent key still colours the accent when the theme
	// does not set one.
	if a := cfg.UI.Accent; a != "" && a != "cyan" && cfg.Theme.Custom["accent"] == "" {
		if c, ok := configColour(a); ok {
			p.accent = c
		}
	}
	if !truecolor {
		for _, f := range []*color{&p.accent, &p.panelBg, &p.sidebarBg, &p.surface0, &p.surface1, &p.surfaceDim, &p.overlay0, &p.overlay1,
			&p.text, &p.subtext0, &p.mauve, &p.green, &p.yellow, &p.red, &p.blue, &p.teal, &p.peach} {
			*f = to256(*f)
		}
	}
	contrast := p.panelBg // text on a coloured background
	if contrast == 0 {
		contrast = pal(0)
	}
	t := &theme{p: p, symbols: cfg.UI.StatusIndicators == "symbols"}
	t.dim = cellStyle{fg: p.overlay0}
	t.name = cellStyle{fg: p.subtext0, attrs: protocol.ScreenBold}
	t.header = cellStyle{fg: p.subtext0, attrs: protocol.ScreenBold}
	t.selected = cellStyle{fg: p.text, bg: p.surface1, attrs: protocol.ScreenBold}
	t.border = cellStyle{fg: p.overlay0}
	t.focus = cellStyle{fg: p.accent, attrs: protocol.ScreenBold}
	t.tab = cellStyle{fg: p.subtext0, bg: p.surface0}
	t.tabOn = cellStyle{fg: contrast, bg: p.accent, attrs: protocol.ScreenBold}
	t.bar = cellStyle{bg: p.surfaceDim}
	t.barLabel = cellStyle{fg: p.text, bg: p.surfaceDim, attrs: protocol.ScreenBold}
	t.mode = cellStyle{fg: contrast, bg: p.yellow, attrs: protocol.ScreenBold}
	t.toast = cellStyle{fg: contrast, bg: p.teal}
	t.match = cellStyle{fg: contrast, bg: p.yellow}
	t.selection = cellStyle{fg: contrast, bg: p.blue}
	t.diag = cellStyle{fg: contrast, bg: p.yellow, attrs: protocol.ScreenBold}
	// Text the palette puts on a background it does not read on (a light
	// theme's white on yellow, its grey tab labels) takes the theme's text
	// colour, its background colour, or black or white, whichever first
	// meets WCAG AA.
	for _, st := range []*cellStyle{&t.selected, &t.tab, &t.tabOn, &t.barLabel, &t.mode, &t.toast, &t.match, &t.selection, &t.diag} {
		st.fg = readable(st.fg, st.bg, p.text, contrast)
	}
	return t
}

// statusIcon is a status's icon in the configured set and its colour.
// Blocked, working and done differ by glyph too, in both sets, so that
// they read apart in a monochrome terminal.
func (t *theme) statusIcon(s protocol.AgentStatus) (string, cellStyle) {
	dots, symbols := "·", "·"
	fg := t.p.overlay0
	switch s {
	case protocol.StatusBlocked:
		dots, symbols, fg = "!", "×", t.p.red
	case protocol.StatusWorking:
		dots, symbols, fg = "●", "◐", t.p.yellow
	case protocol.StatusDone:
		dots, symbols, fg = "✓", "✓", t.p.teal
	case protocol.StatusIdle:
		dots, symbols, fg = "○", "○", t.p.green
	}
	if t.symbols {
		return symbols, cellStyle{fg: fg}
	}
	return dots, cellStyle{fg: fg}
}

// to256 is the nearest colour of the xterm 256-colour palette to a true
// colour (the 6×6×6 cube or the grey ramp); other colours are kept.
func to256(c color) color {
	if c&^0xffffff != colorRGB {
		return c
	}
	r, g, b := int(c>>16&0xff), int(c>>8&0xff), int(c&0xff)
	level := func(v int) int {
		if v < 48 {
			return 0
		}
		if v < 115 {
			return 1
		}
		return (v - 35) / 40
	}
	steps := [6]int{0, 95, 135, 175, 215, 255}
	ri, gi, bi := level(r), level(g), level(b)
	cube := 16 + 36*ri + 6*gi + bi
	dist := func(x, y, z int) int { return (r-x)*(r-x) + (g-y)*(g-y) + (b-z)*(b-z) }
	best, bestD := cube, dist(steps[ri], steps[gi], steps[bi])
	avg := (r + g + b) / 3
	gi2 := min(max((avg-8+5)/10, 0), 23)
	if v := 8 + 10*gi2; dist(v, v, v) < bestD {
		best = 232 + gi2
	}
	return pal(uint8(best))
}

// truecolorTerminal reports whether the outer terminal says it shows
// 24-bit colour (COLORTERM=truecolor or 24bit).
func truecolorTerminal(colorterm string) bool {
	c := strings.ToLower(colorterm)
	return c == "truecolor" || c == "24bit"
}
