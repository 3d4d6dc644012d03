package config

import (
	"strings"
	"testing"
)

// A [[keys.command]] is named by its id, else by its place in the file's
// array (entries left out still count); an empty id or one used twice is
// reported and that command left out.
func TestKeyCommand_IDs(t *testing.T) {
	cfg, diags, _ := Parse([]byte(`
[[keys.command]]
key = "prefix+g"
command = "lazygit"
id = "git-ui"
[[keys.command]]
key = "prefix+t"
command = "make test"
[[keys.command]]
key = "prefix+u"
command = ""
[[keys.command]]
key = "prefix+w"
command = "watch"
[[keys.command]]
key = "prefix+x"
command = "again"
id = "git-ui"
[[keys.command]]
key = "prefix+y"
command = "blank"
id = " "
`))
	var ids []string
	for _, c := range cfg.Keys.Commands {
		ids = append(ids, c.ID+"="+c.Command)
	}
	if got := strings.Join(ids, " "); got != "git-ui=lazygit keys.command.1=make test keys.command.3=watch" {
		t.Fatalf("ids %q", got)
	}
	all := strings.Join(diags, "\n")
	for _, want := range []string{"keys.command[2].command", `keys.command[4].id: "git-ui" is the id of an earlier command too`, "keys.command[5].id: must not be empty"} {
		if !strings.Contains(all, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, all)
		}
	}
}
