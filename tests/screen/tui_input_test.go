package screen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/herdr-go/herdr/tests/harness"
)

// pasteBody is n bytes of lines of printable text, each ended by a carriage
// return as a terminal sends Enter (the pane's tty turns it into \n).
func pasteBody(n int) string {
	var b strings.Builder
	line := 0
	for b.Len() < n {
		s := strings.Repeat("abcdefghij klmnopqrst ", 4) // 88 columns with spaces
		b.WriteString(s)
		b.WriteString("#")
		b.WriteString(strings.Repeat("x", line%7))
		b.WriteByte('\r')
		line++
	}
	return b.String()
}

// An unbracketed paste (what a terminal without bracketed paste sends, or
// a fast typist) reaches the program in the pane whole and in order. How
// long it takes is logged, not judged (timing decides no test): that the
// client sends bursts, not one request per key, is
// tui's TestInput_BurstIsOneWriteAfterTheFirstKey.
func TestTUI_UnbracketedPasteReachesCat(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "paste")
	c := Attach(t, h, "paste", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	out := filepath.Join(h.Dir, "pasted.txt")
	c.Type("stty -echo; cat > " + out + "\r")
	c.Settle(t, 200*time.Millisecond)

	body := pasteBody(100 << 10)
	start := time.Now()
	c.Type(body)
	want := strings.ReplaceAll(body, "\r", "\n")
	var got []byte
	ok := Eventually(func() bool {
		got, _ = os.ReadFile(out)
		return len(got) >= len(want)
	})
	took := time.Since(start)
	t.Logf("%d bytes pasted unbracketed reached cat in %v", len(body), took)
	if !ok {
		t.Fatalf("cat got %d of %d bytes within the wait", len(got), len(want))
	}
	if string(got) != want {
		t.Fatalf("cat got different bytes (%d, want %d)", len(got), len(want))
	}
	c.Type("\x04")
}

// Resize mode applies every key that arrives together: "hhh" in one read
// moves the border three steps.
func TestTUI_ResizeModeAppliesEveryKey(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "resize")
	c := Attach(t, h, "resize", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	c.Type(TuiPrefix + "v")
	c.WaitScreen(t, "two panes", func(s string) bool { return FramedPanes(s) == 2 })
	ratio := func() float64 {
		l := SessionSnapshot(t, s).Layouts[0]
		if len(l.Splits) != 1 {
			t.Fatalf("want one split, got %+v", l.Splits)
		}
		return l.Splits[0].Ratio
	}
	before := ratio()
	c.Type(TuiPrefix + "r")
	c.WaitText(t, "RESIZE")
	c.Type("hhh")
	want := before - 3*0.05
	WaitFor(t, "three resize steps", func() bool { r := ratio(); return r < want+0.001 && r > want-0.001 })
	c.Type("\x1b")
	c.WaitScreen(t, "resize mode to end", func(s string) bool { return !strings.Contains(s, "RESIZE") })
	if r := ratio(); r < want-0.001 {
		t.Errorf("ratio %v after hhh, want %v", r, want)
	}
}
