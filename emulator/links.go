package emulator

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Links in the text (text.go), as Herdr's ctrl-click finds them: an OSC 8
// hyperlink on the cell, else a URL written as text. Only http and https
// links count (SafeLink); an OSC 8 link to anything else is no link, even
// over text that looks like a URL. A URL written as text is a run of
// non-blank characters from "http://" or "https://" within one line (rows
// joined where they soft-wrapped), less trailing quotes and punctuation
// and closing brackets that open nowhere inside it.

// SafeLink reports whether url is a link that may be opened: http or
// https, and free of control characters (an OSC 8 target is whatever
// bytes the program sent; the client hands it to its opener).
func SafeLink(url string) bool {
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return false
	}
	if !utf8.ValidString(url) {
		return false
	}
	for _, r := range url {
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			return false
		}
	}
	return true
}

// maxLinkRows bounds how many rows one link is followed over.
const maxLinkRows = 256

// linkCell is one character of a row that may hold a link.
type linkCell struct {
	row, col, end int
	text          string
	link          string // the OSC 8 target ("" for none)
}

// linkRow reads row y's characters with their OSC 8 targets.
func (t *Terminal) linkRow(y int) (cells []linkCell, wrapped bool) {
	h := t.historyRows()
	var r row
	if y >= h {
		l := t.scr.lines[y-h]
		r = row{cells: l.cells, comb: l.comb, wrapped: l.wrapped, st: &t.styles, links: &t.links}
	} else {
		r = t.scrollbackRows(y, y+1)[0]
	}
	tr := textRow{cells: r.cells, comb: r.comb}
	var b []byte
	for x, c := range r.cells {
		if x >= t.cols {
			break
		}
		if spacer(c) {
			continue
		}
		b = appendCellText(b[:0], &tr, x)
		link := ""
		if c.style != 0 {
			if s := r.st.get(c.style); s.link != 0 {
				link = r.links.get(s.link)
				if i := strings.IndexByte(link, ';'); i >= 0 {
					link = link[i+1:]
				}
			}
		}
		cells = append(cells, linkCell{row: y, col: x, end: min(cellEnd(r.cells, x), t.cols-1), text: string(b), link: link})
	}
	return cells, r.wrapped
}

// LinkAt returns the link on the cell at p and the cells it covers, one
// range per row; url is "" (and ranges nil) when there is none.
func (t *Terminal) LinkAt(p TextPoint) (url string, ranges []TextRange) {
	rows := t.TextRows()
	if p.Row < 0 || p.Row >= rows || p.Col < 0 || p.Col >= t.cols {
		return "", nil
	}
	// The line the row is part of, within maxLinkRows of it.
	from := p.Row
	for from > 0 && p.Row-from < maxLinkRows {
		if _, wrapped := t.linkRow(from - 1); !wrapped {
			break
		}
		from--
	}
	var cells []linkCell
	for y := from; y < rows && y-p.Row < maxLinkRows; y++ {
		c, wrapped := t.linkRow(y)
		cells = append(cells, c...)
		if !wrapped {
			break
		}
	}
	at := -1
	for i, c := range cells {
		if c.row == p.Row && p.Col >= c.col && p.Col <= c.end {
			at = i
			break
		}
	}
	if at < 0 {
		return "", nil
	}
	if link := cells[at].link; link != "" {
		if !SafeLink(link) {
			return "", nil
		}
		start, end := at, at
		for start > 0 && cells[start-1].link == link {
			start--
		}
		for end+1 < len(cells) && cells[end+1].link == link {
			end++
		}
		return link, cellRanges(cells[start : end+1])
	}
	for _, s := range urlSpans(cells) {
		if at >= s[0] && at <= s[1] {
			var b strings.Builder
			for _, c := range cells[s[0] : s[1]+1] {
				b.WriteString(c.text)
			}
			return b.String(), cellRanges(cells[s[0] : s[1]+1])
		}
	}
	return "", nil
}

// cellRanges groups consecutive cells into one range per row.
func cellRanges(cells []linkCell) []TextRange {
	var out []TextRange
	for _, c := range cells {
		if n := len(out); n > 0 && out[n-1].End.Row == c.row {
			out[n-1].End.Col = c.end
			continue
		}
		out = append(out, TextRange{Start: TextPoint{c.row, c.col}, End: TextPoint{c.row, c.end}})
	}
	return out
}

func isBlankText(s string) bool { return strings.TrimFunc(s, unicode.IsSpace) == "" }

// urlSpans finds the URLs written in cells: [first, last] cell indexes.
func urlSpans(cells []linkCell) [][2]int {
	var out [][2]int
	for start := 0; start < len(cells); {
		if !startsWith(cells[start:], "http://") && !startsWith(cells[start:], "https://") {
			start++
			continue
		}
		end := start
		for end+1 < len(cells) && !isBlankText(cells[end+1].text) {
			end++
		}
		next := end + 1
		for end >= start && trailsURL(cells[start:end+1]) {
			end--
		}
		if end >= start {
			out = append(out, [2]int{start, end})
		}
		start = next
	}
	return out
}

func startsWith(cells []linkCell, prefix string) bool {
	for _, c := range cells {
		if prefix == "" {
			return true
		}
		if !strings.HasPrefix(prefix, c.text) {
			return false
		}
		prefix = prefix[len(c.text):]
	}
	return prefix == ""
}

// trailsURL reports whether the last cell of a URL candidate is not part
// of it: closing punctuation, or a closing bracket without its opener.
func trailsURL(cells []linkCell) bool {
	last := cells[len(cells)-1].text
	switch last {
	case `"`, "'", "`", ".", ",", ";", ":", "!", "?":
		return true
	case ")", "]", "}":
		open := map[string]string{")": "(", "]": "[", "}": "{"}[last]
		balance := 0
		for _, c := range cells[:len(cells)-1] {
			switch c.text {
			case open:
				balance++
			case last:
				balance--
			}
		}
		return balance <= 0
	}
	return false
}
