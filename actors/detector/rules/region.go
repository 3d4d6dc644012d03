package rules

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// regionKind names one way of cutting a region out of the screen.
type regionKind int

const (
	regionWholeRecent regionKind = iota
	regionBottomLines
	regionBottomNonEmptyLines
	regionTopNonEmptyLines
	regionAfterLastPromptMarker
	regionBeforeCurrentPromptMarker
	regionWholeRecentWithoutCurrentPromptMarker
	regionCurrentPromptBlockMarker
	regionAfterCurrentPromptBlockMarker
	regionPromptBoxBody
	regionAbovePromptBox
	regionLastNonEmptyAbovePromptBox
	regionAfterLastHorizontalRule
	regionOscTitle
	regionOscProgress
)

// plainRegions are the region names that take no argument.
var plainRegions = map[string]regionKind{
	"whole_recent":                               regionWholeRecent,
	"after_last_prompt_marker":                   regionAfterLastPromptMarker,
	"before_current_prompt_marker":               regionBeforeCurrentPromptMarker,
	"whole_recent_without_current_prompt_marker": regionWholeRecentWithoutCurrentPromptMarker,
	"current_prompt_block_marker":                regionCurrentPromptBlockMarker,
	"after_current_prompt_block_marker":          regionAfterCurrentPromptBlockMarker,
	"prompt_box_body":                            regionPromptBoxBody,
	"above_prompt_box":                           regionAbovePromptBox,
	"last_non_empty_above_prompt_box":            regionLastNonEmptyAbovePromptBox,
	"after_last_horizontal_rule":                 regionAfterLastHorizontalRule,
	"osc_title":                                  regionOscTitle,
	"osc_progress":                               regionOscProgress,
}

// countedRegions are the region names written as name(N).
var countedRegions = map[string]regionKind{
	"bottom_lines":           regionBottomLines,
	"bottom_non_empty_lines": regionBottomNonEmptyLines,
	"top_non_empty_lines":    regionTopNonEmptyLines,
}

// maxRegionLines bounds N in name(N) regions.
const maxRegionLines = 10000

// regionSpec is a parsed region; name is its canonical spelling.
type regionSpec struct {
	kind regionKind
	n    int
	name string
}

// parseRegion parses a rule's region; "" means whole_recent.
func parseRegion(s string) (regionSpec, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		s = "whole_recent"
	}
	if k, ok := plainRegions[s]; ok {
		return regionSpec{kind: k, name: s}, nil
	}
	name, arg, hasArg := strings.Cut(s, "(")
	name = strings.TrimSpace(name)
	k, ok := countedRegions[name]
	if !ok {
		return regionSpec{}, fmt.Errorf("unknown region %q", s)
	}
	if !hasArg || !strings.HasSuffix(arg, ")") {
		return regionSpec{}, fmt.Errorf("region %q needs a line count, as in %s(5)", s, name)
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(arg, ")")))
	if err != nil || n < 1 || n > maxRegionLines {
		return regionSpec{}, fmt.Errorf("region %q: line count must be an integer from 1 to %d", s, maxRegionLines)
	}
	return regionSpec{kind: k, n: n, name: fmt.Sprintf("%s(%d)", name, n)}, nil
}

// screen is one evaluation's view of the input: trimmed lines joined once,
// plus their lowercase copy, with per-line offsets into both.
type screen struct {
	text  string
	lower string
	off   []int // 4 per line: start/end in text, start/end in lower
	n     int   // lines kept (trailing blank rows dropped)
	title string
	prog  string
}

// view is one region of a screen: a contiguous line range, or explicit line
// indices when the region skips lines, or a single OSC string.
type view struct {
	from, to int
	idx      []int
	osc      bool
	text     string
	lower    string
}

func newScreen(in Input, withLower bool) *screen {
	s := &screen{title: in.Title, prog: in.Progress}
	n := len(in.Lines)
	for n > 0 && isBlank(in.Lines[n-1]) {
		n--
	}
	s.n = n
	s.off = make([]int, 4*n)
	size := 0
	for _, l := range in.Lines[:n] {
		size += len(l) + 1
	}
	var tb, lb strings.Builder
	tb.Grow(size)
	if withLower {
		lb.Grow(size)
	}
	for i, l := range in.Lines[:n] {
		l = trimRight(l)
		if i > 0 {
			tb.WriteByte('\n')
			if withLower {
				lb.WriteByte('\n')
			}
		}
		s.off[4*i] = tb.Len()
		tb.WriteString(l)
		s.off[4*i+1] = tb.Len()
		if withLower {
			s.off[4*i+2] = lb.Len()
			writeLower(&lb, l)
			s.off[4*i+3] = lb.Len()
		}
	}
	s.text, s.lower = tb.String(), lb.String()
	return s
}

// writeLower appends the lowercase form of l, as strings.ToLower would,
// copying unchanged runs in one piece.
func writeLower(b *strings.Builder, l string) {
	j := 0
	for i := 0; i < len(l); {
		c := l[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				b.WriteString(l[j:i])
				b.WriteByte(c + 'a' - 'A')
				j = i + 1
			}
			i++
			continue
		}
		// U+2500–U+28FF (box drawing, blocks, shapes, dingbats, braille)
		// has no case; TUIs draw with it constantly.
		if c == 0xE2 && i+2 < len(l) && l[i+1] >= 0x94 && l[i+1] <= 0xA3 && l[i+2] >= 0x80 && l[i+2] <= 0xBF {
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(l[i:])
		switch lr := unicode.ToLower(r); {
		case r == utf8.RuneError && size == 1:
			b.WriteString(l[j:i])
			b.WriteString("\uFFFD") // as strings.ToLower does
			j = i + size
		case lr != r:
			b.WriteString(l[j:i])
			b.WriteRune(lr)
			j = i + size
		}
		i += size
	}
	b.WriteString(l[j:])
}

func trimRight(l string) string {
	return strings.TrimRight(l, " \t\r\u00a0\x00")
}

func isBlank(l string) bool { return strings.TrimSpace(trimRight(l)) == "" }

// line returns line i of the screen (trimmed).
func (s *screen) line(i int) string { return s.text[s.off[4*i]:s.off[4*i+1]] }

func (s *screen) lineBlank(i int) bool { return strings.TrimSpace(s.line(i)) == "" }

// isPromptMarker reports a line that is "›" or starts with "› ".
func isPromptMarker(l string) bool {
	l = strings.TrimLeft(l, " \t")
	rest, ok := strings.CutPrefix(l, "›")
	return ok && (rest == "" || rest[0] == ' ' || strings.HasPrefix(rest, "\u00a0"))
}

// isBlockMarker reports a line that starts a transcript block (•■✗✓).
func isBlockMarker(l string) bool {
	l = strings.TrimLeft(l, " \t")
	r, _ := utf8.DecodeRuneInString(l)
	return r == '•' || r == '■' || r == '✗' || r == '✓'
}

// isHorizontalRule reports a line made only of at least three "─".
func isHorizontalRule(l string) bool {
	l = strings.TrimSpace(l)
	n := 0
	for _, r := range l {
		if r != '─' {
			return false
		}
		n++
	}
	return n >= 3
}

// lastLine returns the index of the last line satisfying f, or -1.
func (s *screen) lastLine(f func(string) bool) int {
	for i := s.n - 1; i >= 0; i-- {
		if f(s.line(i)) {
			return i
		}
	}
	return -1
}

// promptBox returns the top and bottom rule lines of the prompt box: the
// second-from-bottom horizontal rule and the rule after it.
func (s *screen) promptBox() (top, bottom int, ok bool) {
	bottom = s.lastLine(isHorizontalRule)
	if bottom < 0 {
		return 0, 0, false
	}
	for i := bottom - 1; i >= 0; i-- {
		if isHorizontalRule(s.line(i)) {
			return i, bottom, true
		}
	}
	return 0, 0, false
}

// region cuts one region out of the screen.
func (s *screen) region(spec regionSpec, withLower bool) view {
	var v view
	switch spec.kind {
	case regionOscTitle:
		return s.oscView(s.title, withLower)
	case regionOscProgress:
		return s.oscView(s.prog, withLower)
	case regionWholeRecent:
		v.from, v.to = 0, s.n
	case regionBottomLines:
		v.from, v.to = max(0, s.n-spec.n), s.n
	case regionBottomNonEmptyLines:
		idx := make([]int, 0, min(spec.n, s.n))
		for i := s.n - 1; i >= 0 && len(idx) < spec.n; i-- {
			if !s.lineBlank(i) {
				idx = append(idx, i)
			}
		}
		for a, b := 0, len(idx)-1; a < b; a, b = a+1, b-1 {
			idx[a], idx[b] = idx[b], idx[a]
		}
		v.idx = idx
	case regionTopNonEmptyLines:
		idx := make([]int, 0, min(spec.n, s.n))
		for i := 0; i < s.n && len(idx) < spec.n; i++ {
			if !s.lineBlank(i) {
				idx = append(idx, i)
			}
		}
		v.idx = idx
	case regionAfterLastPromptMarker:
		v.from, v.to = s.lastLine(isPromptMarker)+1, s.n
	case regionBeforeCurrentPromptMarker:
		v.from, v.to = 0, s.n
		if m := s.lastLine(isPromptMarker); m >= 0 {
			v.to = m
		}
	case regionWholeRecentWithoutCurrentPromptMarker:
		v.from, v.to = 0, s.n
		if m := s.lastLine(isPromptMarker); m >= 0 {
			v.idx = make([]int, 0, s.n-1)
			for i := 0; i < s.n; i++ {
				if i != m {
					v.idx = append(v.idx, i)
				}
			}
		}
	case regionCurrentPromptBlockMarker:
		if b := s.lastLine(isBlockMarker); b >= 0 {
			v.from, v.to = b, b+1
		}
	case regionAfterCurrentPromptBlockMarker:
		if b := s.lastLine(isBlockMarker); b >= 0 {
			v.from, v.to = b+1, s.n
		}
	case regionPromptBoxBody:
		if top, bottom, ok := s.promptBox(); ok {
			v.from, v.to = top+1, bottom
		}
	case regionAbovePromptBox:
		if top, _, ok := s.promptBox(); ok {
			v.from, v.to = 0, top
		}
	case regionLastNonEmptyAbovePromptBox:
		if top, _, ok := s.promptBox(); ok {
			for i := top - 1; i >= 0; i-- {
				if !s.lineBlank(i) {
					v.from, v.to = i, i+1
					break
				}
			}
		}
	case regionAfterLastHorizontalRule:
		if r := s.lastLine(isHorizontalRule); r >= 0 {
			v.from, v.to = r+1, s.n
		}
	}
	s.fill(&v, withLower)
	return v
}

func (s *screen) oscView(text string, withLower bool) view {
	v := view{osc: true, text: text}
	if withLower {
		v.lower = strings.ToLower(text)
	}
	return v
}

// fill sets the region's text (and lowercase text): a substring of the
// screen when the lines are contiguous, else a fresh join.
func (s *screen) fill(v *view, withLower bool) {
	if len(v.idx) > 0 && v.idx[len(v.idx)-1]-v.idx[0]+1 == len(v.idx) {
		v.from, v.to, v.idx = v.idx[0], v.idx[len(v.idx)-1]+1, nil
	}
	if v.idx == nil {
		if v.from >= v.to {
			v.from, v.to = 0, 0
			return
		}
		v.text = s.text[s.off[4*v.from]:s.off[4*(v.to-1)+1]]
		if withLower {
			v.lower = s.lower[s.off[4*v.from+2]:s.off[4*(v.to-1)+3]]
		}
		return
	}
	var tb, lb strings.Builder
	size := len(v.idx)
	for _, i := range v.idx {
		size += s.off[4*i+1] - s.off[4*i]
	}
	tb.Grow(size)
	if withLower {
		lb.Grow(size)
	}
	for k, i := range v.idx {
		if k > 0 {
			tb.WriteByte('\n')
			lb.WriteByte('\n')
		}
		tb.WriteString(s.line(i))
		if withLower {
			lb.WriteString(s.lower[s.off[4*i+2]:s.off[4*i+3]])
		}
	}
	v.text = tb.String()
	if withLower {
		v.lower = lb.String()
	}
}

// lineCount is the number of lines in the view.
func (v *view) lineCount() int {
	switch {
	case v.osc:
		return 1
	case v.idx != nil:
		return len(v.idx)
	default:
		return v.to - v.from
	}
}

// lineAt returns the view's k-th line.
func (v *view) lineAt(s *screen, k int) string {
	switch {
	case v.osc:
		return v.text
	case v.idx != nil:
		return s.line(v.idx[k])
	default:
		return s.line(v.from + k)
	}
}
