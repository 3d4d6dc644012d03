package emulator

import (
	"fmt"
	"strings"
	"testing"
)

// printLines writes "n <i>" for i in [from, to] to term.
func printLines(term *Terminal, from, to int) {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "n %d\r\n", i)
	}
	term.Write([]byte(b.String()))
}

// joined imports parts (lines parts, then the screen) into a new terminal
// and returns its text.
func joined(t *testing.T, maxRows int, parts ...HistoryPart) []string {
	t.Helper()
	data, err := JoinHistory(parts, maxRows)
	if err != nil {
		t.Fatal(err)
	}
	term := New(40, 10, Options{})
	if err := term.ImportHistory(data, "--"); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range readAll(term, false) {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func nLines(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf("n %d", i))
	}
	return out
}

// Deltas carry only the lines pushed since the mark; joined with the last
// screen they are the whole history, in order, once each.
func TestHistoryDelta_AppendsOnlyNewLines(t *testing.T) {
	term := New(40, 10, Options{})
	printLines(term, 1, 30)
	d1 := term.ExportHistorySince(HistoryMark{}, 0, 0)
	if !d1.Full || d1.Rows != 21 {
		t.Fatalf("first export: full %v rows %d, want a full one of 21 rows", d1.Full, d1.Rows)
	}
	printLines(term, 31, 50)
	d2 := term.ExportHistorySince(d1.Mark, 0, 0)
	if d2.Full || d2.Rows != 20 {
		t.Fatalf("second export: full %v rows %d, want 20 new rows", d2.Full, d2.Rows)
	}
	d3 := term.ExportHistorySince(d2.Mark, 0, 0)
	if d3.Full || d3.Rows != 0 {
		t.Fatalf("export without output: full %v rows %d, want none", d3.Full, d3.Rows)
	}
	got := joined(t, 0, HistoryPart{Data: d1.Lines}, HistoryPart{Data: d2.Lines}, HistoryPart{Data: d3.Lines}, HistoryPart{Data: d3.Screen})
	want := append(nLines(1, 50), "--")
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("joined history:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A screen saved before lines that scrolled off it were appended skips
// them; a bound on rows keeps the newest.
func TestHistoryDelta_SkipAndRowBound(t *testing.T) {
	term := New(40, 10, Options{})
	printLines(term, 1, 20)
	d1 := term.ExportHistorySince(HistoryMark{}, 0, 0)
	printLines(term, 21, 25)
	d2 := term.ExportHistorySince(d1.Mark, 0, 0)
	skip := int(d2.Mark.End() - d1.Mark.End())
	got := joined(t, 0, HistoryPart{Data: d1.Lines}, HistoryPart{Data: d2.Lines}, HistoryPart{Data: d1.Screen, Skip: skip})
	if want := append(nLines(1, 20), "--"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("old screen after newer lines:\n%s", strings.Join(got, "\n"))
	}
	got = joined(t, 5, HistoryPart{Data: d1.Lines}, HistoryPart{Data: d2.Lines})
	if want := append(nLines(12, 16), "--"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("bounded to 5 rows:\n%s", strings.Join(got, "\n"))
	}
}

// More new lines than the bound, a resize, a clear: the export starts over.
func TestHistoryDelta_StartsOverWhenLinesChanged(t *testing.T) {
	term := New(40, 10, Options{})
	printLines(term, 1, 30)
	d := term.ExportHistorySince(HistoryMark{}, 0, 0)
	printLines(term, 31, 100)
	if d2 := term.ExportHistorySince(d.Mark, 50, 0); !d2.Full || d2.Rows != 50 {
		t.Fatalf("70 new lines with a bound of 50: full %v rows %d", d2.Full, d2.Rows)
	}
	d = term.ExportHistorySince(HistoryMark{}, 0, 0)
	term.Resize(30, 10)
	if d2 := term.ExportHistorySince(d.Mark, 0, 0); !d2.Full {
		t.Fatal("an export after a resize is not a full one")
	}
	d = term.ExportHistorySince(HistoryMark{}, 0, 0)
	term.Write([]byte("\x1b[3J"))
	if d2 := term.ExportHistorySince(d.Mark, 0, 0); !d2.Full || d2.Rows != 0 {
		t.Fatalf("after a clear: full %v rows %d", d2.Full, d2.Rows)
	}
}

// A damaged part is an error; a part of another width than the last is
// left out.
func TestHistoryDelta_JoinChecksParts(t *testing.T) {
	term := New(40, 10, Options{})
	printLines(term, 1, 30)
	d := term.ExportHistorySince(HistoryMark{}, 0, 0)
	bad := append([]byte(nil), d.Lines...)
	bad[len(bad)-6] ^= 0xff
	if _, err := JoinHistory([]HistoryPart{{Data: bad}}, 0); err == nil {
		t.Fatal("a damaged part joined")
	}
	narrow := New(30, 10, Options{})
	printLines(narrow, 100, 120)
	got := joined(t, 0, HistoryPart{Data: d.Lines}, HistoryPart{Data: narrow.ExportHistorySince(HistoryMark{}, 0, 0).Lines})
	if want := append(nLines(100, 111), "--"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("parts of two widths:\n%s", strings.Join(got, "\n"))
	}
}

// Styles travel: a red line exported as a delta comes back red.
func TestHistoryDelta_KeepsStyles(t *testing.T) {
	term := New(40, 5, Options{})
	term.Write([]byte("plain\r\n\x1b[31mred line\x1b[0m\r\n"))
	printLines(term, 1, 10)
	d := term.ExportHistorySince(HistoryMark{}, 0, 0)
	data, err := JoinHistory([]HistoryPart{{Data: d.Lines}, {Data: d.Screen}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	back := New(40, 5, Options{})
	if err := back.ImportHistory(data, ""); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(readAll(back, true), "\n"); !strings.Contains(got, "\x1b[31mred line") && !strings.Contains(got, ";31mred line") {
		t.Fatalf("the red line lost its colour:\n%q", got)
	}
}
