package cli

import (
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

func testApp() *app {
	return &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, env: os.Getenv, getwd: os.Getwd}
}

// names lists a command's subcommands with their aliases, sorted.
func names(c *cobra.Command) []string {
	var out []string
	for _, s := range c.Commands() {
		out = append(out, s.Name())
		out = append(out, s.Aliases...)
	}
	slices.Sort(out)
	return out
}

// The nouns table is the whole top level: a command added to the tree but
// not to the table would be missing whenever only one noun is built.
func TestRoot_NounsAreTheWholeTopLevel(t *testing.T) {
	full := testApp().rootCmd([]string{"help"})
	var want []string
	for _, n := range testApp().nouns() {
		want = append(want, n.names...)
	}
	want = append(want, "completion", "completions", "config")
	slices.Sort(want)
	if got := names(full); !slices.Equal(got, want) {
		t.Fatalf("top-level commands %v, nouns table and config/completion %v", got, want)
	}
}

// A command line that names a noun builds that noun alone, with the same
// verbs (hook verbs included) as in the whole tree when it names no verb.
func TestRoot_BuildsOnlyTheChosenNoun(t *testing.T) {
	full := testApp().rootCmd([]string{"help"})
	for _, n := range testApp().nouns() {
		for _, name := range n.names {
			root := testApp().rootCmd([]string{"--session", "s", name})
			if got := names(root); !slices.Equal(got, sortedWith(n.names, "config")) {
				t.Errorf("%s: top level %v, want %v", name, got, sortedWith(n.names, "config"))
				continue
			}
			want, _, _ := full.Find([]string{name})
			got, _, err := root.Find([]string{name})
			if err != nil || !slices.Equal(names(got), names(want)) {
				t.Errorf("%s: verbs %v (%v), whole tree has %v", name, names(got), err, names(want))
			}
		}
	}
}

func sortedWith(s []string, more ...string) []string {
	out := append(slices.Clone(s), more...)
	slices.Sort(out)
	return out
}

func TestRoot_ChosenNoun(t *testing.T) {
	for _, tt := range []struct {
		args []string
		noun string // "" none; "*" the whole tree
	}{
		{nil, ""},
		{[]string{"--version"}, ""},
		{[]string{"--session", "x", "--skill"}, ""},
		{[]string{"pane", "list"}, "pane"},
		{[]string{"--session=x", "ws", "create"}, "workspace"},
		{[]string{"--session", "pane", "tab", "list"}, "tab"},
		{[]string{"pane", "--help"}, "pane"},
		{[]string{"--help"}, "*"},
		{[]string{"-h", "pane"}, "*"},
		{[]string{"help", "pane"}, "*"},
		{[]string{"pnae", "list"}, "*"},
		{[]string{"completion", "bash"}, "*"},
		{[]string{"__complete", "pa"}, "*"},
	} {
		n, ok := testApp().chosenNoun(tt.args)
		got := "*"
		if ok {
			got = ""
			if n != nil {
				got = n.names[0]
			}
		}
		if got != tt.noun {
			t.Errorf("chosenNoun(%q) = %q, want %q", tt.args, got, tt.noun)
		}
	}
}

// A command line that names a noun's verb from the table builds that
// verb as the whole tree has it (its usage and flags), and not the
// noun's other table verbs; one whose verb is a typo or follows a flag
// builds them all (suggestions, help).
func TestRoot_BuildsOnlyTheChosenVerb(t *testing.T) {
	full := testApp().rootCmd([]string{"help"})
	checked := 0
	for _, m := range protocol.Entries() {
		words, _ := cliPath(m.CLI)
		if len(words) < 2 {
			continue
		}
		root := testApp().rootCmd(append([]string{"--session", "s"}, words...))
		want, _, _ := full.Find(words)
		got, _, err := root.Find(words)
		if err != nil || got.CommandPath() != want.CommandPath() || got.Use != want.Use || got.LocalFlags().FlagUsages() != want.LocalFlags().FlagUsages() {
			t.Errorf("%s: built %q %q (%v), whole tree has %q %q", m.CLI, got.CommandPath(), got.LocalFlags().FlagUsages(), err, want.CommandPath(), want.LocalFlags().FlagUsages())
			continue
		}
		checked++
		noun, _, _ := root.Find(words[:1])
		var own *cobra.Command // the noun's own verbs, without the table's
		for _, n := range testApp().nouns() {
			if n.names[0] == words[0] {
				own = n.build()
			}
		}
		for _, other := range protocol.Entries() {
			ow, _ := cliPath(other.CLI)
			if len(ow) > 1 && ow[0] == words[0] && ow[1] != words[1] && subcommand(own, ow[1]) == nil && subcommand(noun, ow[1]) != nil {
				t.Errorf("%s: built the table's %s too", m.CLI, other.CLI)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d table verbs checked", checked)
	}
	for _, args := range [][]string{{"pane", "lsit"}, {"pane", "--json", "list"}} {
		root := testApp().rootCmd(args)
		noun, _, _ := root.Find([]string{"pane"})
		wholeNoun, _, _ := full.Find([]string{"pane"})
		if !slices.Equal(names(noun), names(wholeNoun)) {
			t.Errorf("%q: pane's verbs %v, want the whole tree's %v", args, names(noun), names(wholeNoun))
		}
	}
}

// The version lines Main prints before building the root are what cobra
// prints from the root's template, and every other spelling is left to
// cobra.
func TestMain_VersionBeforeTheTree(t *testing.T) {
	for _, tt := range []struct {
		args []string
		fast bool
	}{
		{[]string{"--version"}, true},
		{[]string{"-V"}, true},
		{[]string{"--session", "gaps", "--version"}, true},
		{[]string{"-V", "--session=w"}, true},
		{[]string{"--session", "--version"}, false}, // the session's name
		{[]string{"--version", "--session"}, false}, // a flag without its value
		{[]string{"--session="}, false},
		{[]string{"--version=true"}, false},
		{[]string{"--version", "pane"}, false},
		{[]string{"-Vh"}, false},
		{nil, false},
	} {
		if got := onlyVersion(tt.args); got != tt.fast {
			t.Errorf("onlyVersion(%q) = %v, want %v", tt.args, got, tt.fast)
		}
		if !tt.fast {
			continue
		}
		var fast, slow strings.Builder
		if code := Main(nil, tt.args, strings.NewReader(""), &fast, io.Discard, os.Getenv); code != 0 {
			t.Fatalf("%q: exit %d", tt.args, code)
		}
		a := testApp()
		a.stdout = &slow
		root := a.rootCmd(tt.args)
		root.SetArgs(tt.args)
		root.SetOut(&slow)
		if err := root.Execute(); err != nil || fast.String() != slow.String() || !strings.HasPrefix(fast.String(), "herdr ") {
			t.Errorf("%q: Main printed %q, cobra %q (%v)", tt.args, fast.String(), slow.String(), err)
		}
	}
}

// Every verb a noun has in the whole tree, hand-written or the table's, is
// built as the whole tree has it when a command line names it (by name or
// alias); under a noun whose verbs are added with addVerbs, alone: no
// other verb of its noun is built.
func TestRoot_BuildsOnlyTheChosenHandWrittenVerb(t *testing.T) {
	lazy := map[string]bool{"pane": true, "workspace": true, "agent": true}
	full := testApp().rootCmd([]string{"help"})
	checked := 0
	for _, n := range testApp().nouns() {
		whole, _, err := full.Find(n.names[:1])
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range whole.Commands() {
			for _, name := range append([]string{want.Name()}, want.Aliases...) {
				args := []string{"--session", "s", n.names[0], name}
				root := testApp().rootCmd(args)
				noun, _, _ := root.Find(n.names[:1])
				got := subcommand(noun, name)
				if got == nil || got.Use != want.Use || got.LocalFlags().FlagUsages() != want.LocalFlags().FlagUsages() {
					t.Errorf("%q: built %v, whole tree has %q", args, got, want.Use)
					continue
				}
				if lazy[n.names[0]] && len(noun.Commands()) != 1 {
					t.Errorf("%q: built %v", args, names(noun))
				}
				checked++
			}
		}
	}
	if checked < 120 {
		t.Fatalf("only %d verbs checked", checked)
	}
}

// A version that cannot be written says why on stderr and fails.
func TestMain_VersionWriteFails(t *testing.T) {
	var stderr strings.Builder
	if code := Main(nil, []string{"--version"}, strings.NewReader(""), failingWriter{}, &stderr, os.Getenv); code != 1 || !strings.Contains(stderr.String(), "no room") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no room") }
