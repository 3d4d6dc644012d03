package shellquote

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestMain doubles as the program the real shells run: with
// SHELLQUOTE_ARGV_OUT set it writes its arguments there, NUL-terminated,
// and exits.
func TestMain(m *testing.M) {
	if out := os.Getenv("SHELLQUOTE_ARGV_OUT"); out != "" {
		var b strings.Builder
		for _, a := range os.Args[1:] {
			b.WriteString(a + "\x00")
		}
		if err := os.WriteFile(out, []byte(b.String()), 0o600); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// hostile are arguments that break one shell's quoting or another's: the
// fish break-out of the issue first.
var hostile = [][]string{
	{`x\`, "; touch F; echo ", `z\`},
	{`'`, `''`, `\'`, `\\`, `'\''`, `"`, `""`, `\"`, `a'b"c\d`},
	{"$(touch F)", "`touch F`", "$HOME", "${HOME}", "$env:HOME", "`$x", "(touch F)", "@(touch F)", "$(touch F)$"},
	{";", "&", "&&", "|", "||", ">F", "<F", "2>F", "a;touch F", "a|touch F", "a&touch F"},
	{"*", "?", "[a]", "~", "~root", "{a,b}", "!", "!!", "!-1", "^x", "#x", "a #x", "%self", "%1"},
	{"=ls", "a=b", "--", "-c", "--%", "-", "a b", "  lead", "trail  ", "a\u00a0b"},
	{"ünï", "☃", "漢字", "‘smart’", "a\u2019b", "\u201ax\u201b", "“dq”", "e\u0301"},
	{"fine", "also/fine", "-o", "--opt=val", "k:v", "+x"},
}

// Spellings fixed per dialect: what is typed, exactly.
func TestLine_Spelling(t *testing.T) {
	argv := []string{"claude", `x\`, "; touch F; echo ", "it's", "--opt=v", "=x", "", "‘q’"}
	for _, c := range []struct {
		shell, want string
	}{
		{"/bin/sh", `claude 'x\' '; touch F; echo ' 'it'\''s' --opt=v '=x' '' '‘q’'`},
		{"/usr/bin/zsh", `claude 'x\' '; touch F; echo ' 'it'\''s' --opt=v '=x' '' '‘q’'`},
		{"-zsh", `claude 'x\' '; touch F; echo ' 'it'\''s' --opt=v '=x' '' '‘q’'`},
		{"/usr/local/bin/fish", `claude 'x\\' '; touch F; echo ' 'it\'s' --opt=v '=x' '' '‘q’'`},
	} {
		got, err := Line(c.shell, argv)
		if err != nil || got != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.shell, got, err, c.want)
		}
	}
	got, err := Line(`C:\Program Files\PowerShell\7\pwsh.exe`, []string{"claude", `x\`, "it's", "--opt=v", "‘q’", "$(x)"})
	if want := `claude 'x\' 'it''s' '--opt=v' '‘‘q’’' '$(x)'`; err != nil || got != want {
		t.Errorf("pwsh:\n got %s (%v)\nwant %s", got, err, want)
	}
	got, err = Line("powershell.exe", []string{"my agent", "a"})
	if want := `& 'my agent' a`; err != nil || got != want {
		t.Errorf("powershell: got %s (%v), want %s", got, err, want)
	}
	for _, bad := range [][]string{{"claude", ""}, {"claude", `say "hi"`}, {"claude", `C:\my dir\`}} {
		if got, err := Line("pwsh", bad); err == nil {
			t.Errorf("pwsh %q: %s, want refused", bad, got)
		}
	}
}

func TestDialectOf(t *testing.T) {
	for shell, want := range map[string]Dialect{
		"/bin/sh": POSIX, "dash": POSIX, "/usr/bin/bash": POSIX, "-bash": POSIX, "/bin/zsh": POSIX, "ksh93": POSIX, "busybox": POSIX,
		"/usr/bin/fish": Fish, "-fish": Fish, "FISH": Fish,
		"pwsh": PowerShell, `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`: PowerShell, "PWSH.EXE": PowerShell,
		"cmd.exe": Unknown, "/bin/tcsh": Unknown, "nu": Unknown, "": Unknown, "/usr/bin/vim": Unknown,
	} {
		if got := DialectOf(shell); got != want {
			t.Errorf("DialectOf(%q) = %v, want %v", shell, got, want)
		}
	}
}

// A control character is an editing key to a shell's line editor (Ctrl-C
// drops the line, a newline runs what follows): refused in every dialect.
func TestLine_RefusesControlCharacters(t *testing.T) {
	for _, shell := range []string{"sh", "bash", "zsh", "fish", "pwsh", "tcsh"} {
		for _, w := range []string{"a\nb", "a\rtouch F", "\x03touch F", "\x15", "\x1b[A", "a\tb", "\x7f", "\u0085", "\u009b2J"} {
			if got, err := Line(shell, []string{"claude", w}); err == nil {
				t.Errorf("%s %q: %q, want refused", shell, w, got)
			}
		}
	}
}

// A shell this package does not know gets plain words only.
func TestLine_UnknownShellTakesPlainWordsOnly(t *testing.T) {
	if got, err := Line("/bin/tcsh", []string{"claude", "--model", "opus-4", "k:v", "a/b.c", "-x=1"}); err != nil || got != "claude --model opus-4 k:v a/b.c -x=1" {
		t.Errorf("plain words: %q %v", got, err)
	}
	for _, w := range []string{"a b", "it's", "!", "$x", "=x", ""} {
		if got, err := Line("/bin/tcsh", []string{"claude", w}); err == nil {
			t.Errorf("tcsh %q: %q, want refused", w, got)
		}
	}
}

// Each installed shell runs the line and the program receives the argv
// byte for byte; none of the hostile words runs anything (no file appears
// in the folder it runs in).
func TestLine_RealShells(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the POSIX and fish shells are not on Windows")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		name string
		argv func(line string) []string
	}
	var shells []run
	for _, sh := range []string{"sh", "dash", "bash", "zsh", "fish", "pwsh"} {
		path, err := exec.LookPath(sh)
		if err != nil {
			t.Logf("%s is not installed: not run", sh)
			continue
		}
		switch sh {
		case "pwsh":
			shells = append(shells, run{sh, func(l string) []string { return []string{path, "-NoProfile", "-NonInteractive", "-Command", l} }})
		case "fish":
			shells = append(shells, run{sh, func(l string) []string { return []string{path, "--no-config", "-c", l} }})
		case "zsh":
			shells = append(shells, run{sh, func(l string) []string { return []string{path, "-f", "-c", l} }})
			// RC_QUOTES reads '' inside single quotes as a quote.
			shells = append(shells, run{"zsh -o rcquotes", func(l string) []string { return []string{path, "-f", "-o", "rcquotes", "-c", l} }})
		default:
			shells = append(shells, run{sh, func(l string) []string { return []string{path, "-c", l} }})
		}
	}
	if len(shells) == 0 {
		t.Skip("no shell installed")
	}
	for _, sh := range shells {
		for _, args := range hostile {
			argv := append([]string{self}, args...)
			line, err := Line(sh.argv("")[0], argv)
			if sh.name == "pwsh" && slices.ContainsFunc(args, func(a string) bool { return a == "" || strings.Contains(a, `"`) }) {
				if err == nil {
					t.Errorf("pwsh took %q", args)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %q: %v", sh.name, args, err)
				continue
			}
			dir := t.TempDir()
			out := filepath.Join(t.TempDir(), "argv")
			shArgv := sh.argv(line)
			cmd := exec.Command(shArgv[0], shArgv[1:]...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "SHELLQUOTE_ARGV_OUT="+out, "HOME="+t.TempDir()) // fish makes its folders there
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s ran %s: %v\n%s", sh.name, line, err, b)
				continue
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Errorf("%s ran %s: the program did not run: %v", sh.name, line, err)
				continue
			}
			got := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
			if len(args) == 0 {
				got = nil
			}
			if !slices.Equal(got, args) {
				t.Errorf("%s ran %s\n got %q\nwant %q", sh.name, line, got, args)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("%s ran %s: it made %v", sh.name, line, entries)
			}
		}
	}
}
