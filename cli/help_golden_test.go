package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

var updateHelp = flag.Bool("update-help", false, "rewrite testdata/help.golden from the current command tree")

// TestHelpGolden pins what a person sees of every command: its --help,
// its flags with their required and exclusive marks, and what its argument
// check says to no arguments and to too many. A verb moved from hand-written
// code to the method table (cli/fromtable.go) must leave all of it byte for
// byte; `go test ./cli -run TestHelpGolden -update-help` rewrites the file
// when a change to the CLI is meant.
func TestHelpGolden(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the golden file is the Linux tree (a few commands differ by platform)")
	}
	got := helpDump()
	path := filepath.Join("testdata", "help.golden")
	if *updateHelp {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		return
	}
	// Name the first command whose dump differs, and how to accept it.
	const accept = "a change meant: go test ./cli -run TestHelpGolden -update-help, and review the diff"
	g, w := strings.Split(got, "\n=== "), strings.Split(string(want), "\n=== ")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Fatalf("help differs from testdata/help.golden at:\n--- got\n%s\n--- want\n%s\n(%s)", g[i], w[i], accept)
		}
	}
	t.Fatalf("help has %d commands, testdata/help.golden %d (%s)", len(g), len(w), accept)
}

// helpDump renders the whole tree, one section per command in path order.
func helpDump() string {
	a := &app{stdout: io.Discard, stderr: io.Discard, env: func(string) string { return "" }, getwd: os.Getwd}
	root := a.rootCmd([]string{"--help"})
	var cmds []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		cmds = append(cmds, c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	slices.SortFunc(cmds, func(x, y *cobra.Command) int { return strings.Compare(x.CommandPath(), y.CommandPath()) })
	var b strings.Builder
	for _, c := range cmds {
		fmt.Fprintf(&b, "\n=== %s\n", c.CommandPath())
		if len(c.Aliases) > 0 {
			fmt.Fprintf(&b, "aliases: %s\n", strings.Join(c.Aliases, " "))
		}
		if c.Hidden {
			b.WriteString("hidden\n")
		}
		var out bytes.Buffer
		c.SetOut(&out)
		_ = c.Help()
		b.Write(out.Bytes())
		c.Flags().VisitAll(func(f *pflag.Flag) {
			var marks []string
			for _, k := range []string{cobra.BashCompOneRequiredFlag, "cobra_annotation_mutually_exclusive", "cobra_annotation_required_if_others_set", "cobra_annotation_one_required"} {
				if v, ok := f.Annotations[k]; ok {
					marks = append(marks, k+"="+strings.Join(v, ","))
				}
			}
			if len(marks) > 0 {
				fmt.Fprintf(&b, "flag --%s: %s\n", f.Name, strings.Join(marks, " "))
			}
		})
		if c.Args != nil {
			fmt.Fprintf(&b, "args(): %v\n", c.Args(c, nil))
			fmt.Fprintf(&b, "args(9): %v\n", c.Args(c, []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"}))
		}
	}
	return b.String()
}
