package emulator

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The emoji width goldens: each case of testdata/widths.cases written on a
// 40×5 terminal, its cells and cursor column kept in testdata/widths.golden.
// TestWidthsGolden holds the emulator and the client's measure to them;
// TestWidthsNextToTmux holds them to tmux.

const widthsCols, widthsRows = 40, 5

type widthCase struct{ name, input string }

func readWidthCases(t *testing.T) []widthCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "widths.cases"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []widthCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, lit, ok := strings.Cut(line, "\t")
		input, err := strconv.Unquote(lit)
		if !ok || err != nil {
			t.Fatalf("widths.cases: bad line %q", line)
		}
		cases = append(cases, widthCase{name, input})
	}
	if len(cases) == 0 {
		t.Fatal("widths.cases has no cases")
	}
	return cases
}

// widthLayout is one case as drawn: the cursor column and the first row's
// cells up to the last used one, a wide character's second half as "".
type widthLayout struct {
	cursor int
	cells  []string
}

func (l widthLayout) String() string {
	q := make([]string, len(l.cells))
	for i, c := range l.cells {
		q[i] = strconv.Quote(c)
	}
	return fmt.Sprintf("cursor=%d cells=%s", l.cursor, strings.Join(q, " "))
}

// text is the row as a terminal's capture prints it.
func (l widthLayout) text() string { return strings.Join(l.cells, "") }

func emulatorLayout(input string) widthLayout {
	term := New(widthsCols, widthsRows, Options{Reply: func([]byte) {}})
	term.WriteString(input)
	x, _, _ := term.Cursor()
	l := term.scr.lines[0]
	var cells []string
	for i := 0; i < int(l.hi); i++ {
		c := l.cells[i]
		switch {
		case c.flags&cellCont != 0:
			cells = append(cells, "")
		case c.ch == 0:
			cells = append(cells, " ")
		default:
			cells = append(cells, string(c.ch)+l.comb[i])
		}
	}
	return widthLayout{cursor: x, cells: cells}
}

// clientLayout is the case measured by NextCell, as the client splits and
// draws a row of a snapshot.
func clientLayout(input string) widthLayout {
	var cells []string
	for s := input; s != ""; {
		cl, rest, w := NextCell(s)
		cells = append(cells, cl)
		if w == 2 {
			cells = append(cells, "")
		}
		s = rest
	}
	return widthLayout{cursor: len(cells), cells: cells}
}

func TestWidthsGolden(t *testing.T) {
	cases := readWidthCases(t)
	var b strings.Builder
	for _, c := range cases {
		got := emulatorLayout(c.input)
		if client := clientLayout(c.input); client.String() != got.String() {
			t.Errorf("%s: the client measures %s, the emulator draws %s", c.name, client, got)
		}
		fmt.Fprintf(&b, "%s %s\n", c.name, got)
	}
	path := filepath.Join("testdata", "widths.golden")
	if *updateFlag {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	gotLines := strings.Split(b.String(), "\n")
	wantLines := strings.Split(string(want), "\n")
	if len(gotLines) != len(wantLines) {
		t.Fatalf("widths.golden has %d lines, the cases give %d (run with -update if the cases changed)", len(wantLines), len(gotLines))
	}
	for i := range gotLines {
		if gotLines[i] != wantLines[i] {
			t.Errorf("got  %s\nwant %s", gotLines[i], wantLines[i])
		}
	}
}

// TestWidthsNextToTmux writes every case into a window of a live tmux and
// compares its cursor column and row text with the golden. tmux before 3.4
// did not widen VS16, so there each cluster that VS16 alone made wide is
// expected one column narrower; everything else must match.
func TestWidthsNextToTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	cases := readWidthCases(t)
	dir := t.TempDir()
	sock := filepath.Join(dir, "sock")
	tmux := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TMUX=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return strings.TrimRight(string(out), "\n")
	}
	major, minor := tmuxVersion(t, tmux("-V"))
	vs16Wide := major > 3 || major == 3 && minor >= 4
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })

	for i, c := range cases {
		file := filepath.Join(dir, fmt.Sprintf("case%d", i))
		if err := os.WriteFile(file, []byte(c.input), 0o600); err != nil {
			t.Fatal(err)
		}
		shell := "cat '" + file + "'; sleep 120"
		if i == 0 {
			tmux("new-session", "-d", "-s", "w", "-x", strconv.Itoa(widthsCols), "-y", strconv.Itoa(widthsRows), shell)
		} else {
			tmux("new-window", "-d", "-t", "w:"+strconv.Itoa(i), shell)
		}
	}
	golden := readWidthsGolden(t)
	for i, c := range cases {
		target := "w:" + strconv.Itoa(i)
		var row string
		for deadline := time.Now().Add(20 * time.Second); ; {
			row, _, _ = strings.Cut(tmux("capture-pane", "-p", "-t", target), "\n")
			if strings.HasSuffix(strings.TrimRight(row, " "), "|") || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		cursor, err := strconv.Atoi(tmux("display-message", "-p", "-t", target, "#{cursor_x}"))
		if err != nil {
			t.Fatal(err)
		}
		want, ok := golden[c.name]
		if !ok {
			t.Fatalf("%s is not in widths.golden", c.name)
		}
		wantCursor := want.cursor
		if !vs16Wide {
			wantCursor -= widenedByVS16(want)
		}
		if got := strings.TrimRight(row, " "); got != want.text() || cursor != wantCursor {
			t.Errorf("%s: tmux draws %q with the cursor at %d; the golden %q at %d", c.name, got, cursor, want.text(), wantCursor)
		}
	}
}

// widenedByVS16 counts the wide clusters of l whose first character alone
// is narrow and that carry VS16.
func widenedByVS16(l widthLayout) int {
	n := 0
	for i, c := range l.cells {
		if i+1 < len(l.cells) && l.cells[i+1] == "" && strings.Contains(c, "\ufe0f") {
			if r := []rune(c)[0]; r < 0x300 || computeWidth(r) == 1 {
				n++
			}
		}
	}
	return n
}

func tmuxVersion(t *testing.T, v string) (major, minor int) {
	m := regexp.MustCompile(`(\d+)\.(\d+)`).FindStringSubmatch(v)
	if m == nil {
		t.Fatalf("cannot read the tmux version in %q", v)
	}
	major, _ = strconv.Atoi(m[1])
	minor, _ = strconv.Atoi(m[2])
	return major, minor
}

func readWidthsGolden(t *testing.T) map[string]widthLayout {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "widths.golden"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]widthLayout{}
	re := regexp.MustCompile(`^(\S+) cursor=(\d+) cells=(.*)$`)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		m := re.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("widths.golden: bad line %q", line)
		}
		var l widthLayout
		l.cursor, _ = strconv.Atoi(m[2])
		for rest := m[3]; rest != ""; {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				t.Fatalf("widths.golden: bad cells in %q", line)
			}
			s, _ := strconv.Unquote(q)
			l.cells = append(l.cells, s)
			rest = strings.TrimPrefix(rest[len(q):], " ")
		}
		out[m[1]] = l
	}
	return out
}
