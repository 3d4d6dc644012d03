package emulator

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateFlag = flag.Bool("update", false, "rewrite testdata/*.golden from the current emulator")

// The size every stream under testdata/ was recorded at.
const (
	goldenCols = 80
	goldenRows = 24
)

// goldenView renders everything a golden file pins: the visible screen as
// text and as ANSI, the cursor, the title, progress, modes and the last
// rows of recent_unwrapped.
func goldenView(term *Terminal) string {
	var b strings.Builder
	x, y, vis := term.Cursor()
	m := term.Modes()
	fmt.Fprintf(&b, "cursor: %d,%d visible=%v\n", x, y, vis)
	fmt.Fprintf(&b, "title: %q\nprogress: %q\n", term.Title(), term.Progress())
	fmt.Fprintf(&b, "modes: alt=%v appcursor=%v paste=%v autowrap=%v\n", m.AltScreen, m.AppCursor, m.BracketedPaste, m.AutoWrap)
	b.WriteString("-- visible --\n")
	b.WriteString(term.Read(ReadOptions{Source: SourceVisible}).Text)
	b.WriteString("\n-- ansi --\n")
	b.WriteString(term.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text)
	b.WriteString("\n-- recent_unwrapped (last 30) --\n")
	b.WriteString(term.Read(ReadOptions{Source: SourceRecentUnwrapped, Lines: 30}).Text)
	b.WriteString("\n")
	return b.String()
}

// TestGolden replays each recorded stream under testdata/ and compares the
// result with its .golden file. The stream is also replayed in random
// chunk sizes, which must give exactly the same view.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.in"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no testdata/*.in streams")
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".in")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			term := New(goldenCols, goldenRows, Options{Reply: func([]byte) {}})
			term.Write(data)
			got := goldenView(term)

			rng := rand.New(rand.NewSource(int64(len(data))))
			chunked := New(goldenCols, goldenRows, Options{Reply: func([]byte) {}})
			for off := 0; off < len(data); {
				n := min(1+rng.Intn(64), len(data)-off)
				chunked.Write(data[off : off+n])
				off += n
			}
			if c := goldenView(chunked); c != got {
				t.Errorf("chunked replay differs from whole replay:\n%s\n---- whole ----\n%s", c, got)
			}

			golden := filepath.Join("testdata", name+".golden")
			if *updateFlag {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s (run with -update if the change is right):\n---- got ----\n%s\n---- want ----\n%s", in, golden, got, want)
			}
		})
	}
}
