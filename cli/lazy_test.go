package cli

import (
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
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
// verbs (hook verbs included) as in the whole tree.
func TestRoot_BuildsOnlyTheChosenNoun(t *testing.T) {
	full := testApp().rootCmd([]string{"help"})
	for _, n := range testApp().nouns() {
		for _, name := range n.names {
			root := testApp().rootCmd([]string{"--session", "s", name, "list"})
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
