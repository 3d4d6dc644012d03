package emulator

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// OSC (operating system command) sequences: title (0, 2), working directory
// (7), hyperlinks (8), progress (9;4) and semantic prompt marks (133).
// Others are ignored.

// maxOSCString bounds stored OSC strings.
const maxOSCString = 4096

func (t *Terminal) osc(params [][]byte) {
	if len(params) == 0 {
		return
	}
	n, err := strconv.Atoi(string(params[0]))
	if err != nil {
		return
	}
	switch n {
	case 0, 2:
		t.changed = true
		arg := joinOSC(params[1:])
		if t.title != arg {
			t.title = arg
			if t.opts.OnTitle != nil {
				t.opts.OnTitle(arg)
			}
		}
	case 7:
		t.changed = true
		t.cwd = joinOSC(params[1:])
	case 8:
		t.oscHyperlink(params[1:])
	case 9:
		if len(params) >= 2 && string(params[1]) == "4" {
			t.oscProgress(params[2:])
		}
	case 133:
		if len(params) >= 2 {
			t.oscPromptMark(params[1:])
		}
	case 52:
		t.oscClipboard(params[1:])
	}
}

// maxClipboard bounds an OSC 52 payload (base64) a program may set.
const maxClipboard = 1 << 20

// oscClipboard keeps a program's OSC 52 clipboard set (the base64 text);
// queries ("?") are not answered: a program must not read the person's
// clipboard through the terminal.
func (t *Terminal) oscClipboard(args [][]byte) {
	if len(args) < 2 {
		return
	}
	data := string(args[1])
	if data == "?" || len(data) > maxClipboard {
		return
	}
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		return
	}
	r := t.rareSet()
	r.clipboard = data
	r.clipboardSeq++
}

// Clipboard returns the last clipboard text a program set with OSC 52
// (base64) and how many sets there have been, so a caller can tell a new
// one from the one it has seen.
func (t *Terminal) Clipboard() (seq uint64, base64Text string) {
	r := t.rareGet()
	return r.clipboardSeq, r.clipboard
}

// joinOSC rebuilds the argument of an OSC: the parser splits on ';', but a
// title may legitimately contain semicolons.
func joinOSC(parts [][]byte) string {
	size := 0
	for i, p := range parts {
		if i > 0 {
			size++
		}
		size += len(p)
	}
	if size > maxOSCString {
		size = maxOSCString
	}
	b := make([]byte, 0, size)
	for i, p := range parts {
		if i > 0 {
			b = append(b, ';')
		}
		b = append(b, p...)
		if len(b) >= maxOSCString {
			b = b[:maxOSCString]
			break
		}
	}
	return string(b)
}

// oscHyperlink handles OSC 8 ; params ; URI: the pen gets the link until an
// OSC 8 with an empty URI. The link is kept as "params;URI" so an ANSI read
// reproduces it exactly (the id= parameter included).
func (t *Terminal) oscHyperlink(args [][]byte) {
	if len(args) < 2 {
		return
	}
	uri := joinOSC(args[1:])
	s := t.pen
	if uri == "" {
		s.link = 0
	} else {
		s.link = t.internLink(string(args[0]) + ";" + uri)
	}
	t.setPen(s)
}

// oscProgress handles OSC 9 ; 4 ; state ; percent (ConEmu / Windows
// Terminal progress): state 0 clears it, 1 normal, 2 error, 3
// indeterminate, 4 paused.
func (t *Terminal) oscProgress(args [][]byte) {
	state, pct := 0, 0
	if len(args) > 0 {
		state, _ = strconv.Atoi(string(args[0]))
	}
	if len(args) > 1 {
		pct, _ = strconv.Atoi(string(args[1]))
	}
	t.changed = true
	if state <= 0 || state > 4 {
		if t.rare != nil {
			t.rare.progress = ""
		}
		return
	}
	t.rareSet().progress = strconv.Itoa(state) + ";" + strconv.Itoa(clamp(pct, 0, 100))
}

// oscPromptMark handles OSC 133 ; A|B|C|D[;exit code][;options].
func (t *Terminal) oscPromptMark(args [][]byte) {
	if len(args[0]) != 1 || !strings.ContainsRune("ABCD", rune(args[0][0])) {
		return
	}
	t.changed = true
	m := promptMark{kind: args[0][0], absRow: t.scrolled + int64(t.y), col: t.x, exit: -1, valid: true}
	if m.kind == 'D' && len(args) > 1 {
		if code, err := strconv.Atoi(string(args[1])); err == nil {
			m.exit = code
		}
	}
	t.mark = m
}

// promptMark is the last OSC 133 mark; absRow counts rows from the first
// row the primary screen ever had (see Terminal.scrolled).
type promptMark struct {
	kind   byte
	absRow int64
	col    int
	exit   int
	valid  bool
}

// PromptMark is the last OSC 133 semantic prompt mark.
type PromptMark struct {
	// Kind is 'A' (prompt start), 'B' (prompt end, input start), 'C'
	// (command output start) or 'D' (command finished).
	Kind byte
	// Row is the screen row of the mark, relative to the current top of the
	// screen: negative once it scrolled into scrollback. After a reflow it
	// is approximate.
	Row, Col int
	// ExitCode is the exit status sent with D, or -1.
	ExitCode int
}

// LastPromptMark returns the last OSC 133 mark, if any was received.
func (t *Terminal) LastPromptMark() (PromptMark, bool) {
	m := t.mark
	if !m.valid {
		return PromptMark{}, false
	}
	return PromptMark{Kind: m.kind, Row: int(m.absRow - t.scrolled), Col: m.col, ExitCode: m.exit}, true
}

// Progress is the last OSC 9;4 progress report as "state;percent" (state
// 1 normal, 2 error, 3 indeterminate, 4 paused; e.g. "1;50"), or "" when
// none is active.
func (t *Terminal) Progress() string { return t.rareGet().progress }

// Limits of the hyperlink table.
const (
	maxLinks     = 1<<16 - 1
	maxLinkBytes = 1 << 20
)

// linkTable interns hyperlinks ("params;URI"). Id 0 means no link.
type linkTable struct {
	list  []string
	index map[string]uint16
	bytes int
}

func (lt *linkTable) get(id uint16) string {
	if id == 0 || int(id) > len(lt.list) {
		return ""
	}
	return lt.list[id-1]
}

func (lt *linkTable) lookup(s string) (uint16, bool) {
	if id, ok := lt.index[s]; ok {
		return id, true
	}
	if len(lt.list) >= maxLinks || lt.bytes+len(s) > maxLinkBytes {
		return 0, false
	}
	if lt.index == nil {
		lt.index = make(map[string]uint16)
	}
	lt.list = append(lt.list, s)
	lt.bytes += len(s)
	id := uint16(len(lt.list))
	lt.index[s] = id
	return id, true
}

// internLink returns the id of link, compacting the tables when full; 0
// (no link) if it still does not fit.
func (t *Terminal) internLink(link string) uint16 {
	if id, ok := t.links.lookup(link); ok {
		return id
	}
	t.compactStyles()
	id, _ := t.links.lookup(link)
	return id
}
