package cli

import (
	"strings"
	"testing"
)

// A typo is a one-line usage error (exit 2) that names what was meant,
// before any socket is used.
func TestTypos_SuggestWhatWasMeant(t *testing.T) {
	env := newEnv(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"pane", "splt"}, "unknown command: splt (did you mean split?)"},
		{[]string{"worktree", "rmove"}, "unknown command: rmove (did you mean remove?)"},
		{[]string{"paen", "list"}, "unknown command: paen (did you mean pane?)"},
		// server runs on its own and has subcommands: its typos too.
		{[]string{"server", "stopp"}, "unknown command: stopp (did you mean stop?)"},
		{[]string{"server", "reload-confg"}, "unknown command: reload-confg (did you mean reload-config?)"},
		{[]string{"workspace", "create", "--lable", "x"}, "unknown option: --lable (did you mean --label?)"},
		{[]string{"pane", "list", "--workspce", "w1"}, "unknown option: --workspce (did you mean --workspace?)"},
		{[]string{"pane", "wait-output", "w1:p1", "--match", "x", "--timeout", "abc"}, `herdr: invalid --timeout "abc": expected a whole number, 0 or more`},
		{[]string{"pane", "split", "--direction", "right", "--ratio", "half"}, `herdr: invalid --ratio "half": expected a number`},
	} {
		r := run(t, env, c.args...)
		if r.code != 2 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, c.want) {
			t.Errorf("herdr %s: exit %d stdout %q stderr %q, want exit 2 and one line starting %q", strings.Join(c.args, " "), r.code, r.stdout, r.stderr, c.want)
		}
		if strings.Contains(r.stderr, "strconv") {
			t.Errorf("herdr %s: a raw parser error: %q", strings.Join(c.args, " "), r.stderr)
		}
	}
	// Nothing near: no suggestion, the plain message.
	if r := run(t, env, "pane", "list", "--zzzzzz"); r.code != 2 || strings.Contains(r.stderr, "did you mean") {
		t.Errorf("far typo: exit %d %q", r.code, r.stderr)
	}
}

func TestConfig_Check_SuggestsTheKeyMeant(t *testing.T) {
	env := newEnv(t)
	writeConfig(t, env, "[ui]\nsidebar_widht = 30\n")
	r := run(t, env, "config", "check")
	if r.code != 1 || !strings.Contains(r.stdout, "unknown key ui.sidebar_widht; did you mean ui.sidebar_width?") {
		t.Fatalf("exit %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// A misspelt section names the section meant, in config check as in reload.
func TestConfig_Check_SuggestsTheSectionMeant(t *testing.T) {
	env := newEnv(t)
	writeConfig(t, env, "[termnal]\nnew_cwd = \"home\"\n")
	r := run(t, env, "config", "check")
	if r.code != 1 || !strings.Contains(r.stdout, "unknown section [termnal]; did you mean [terminal]?") {
		t.Fatalf("exit %d %q %q", r.code, r.stdout, r.stderr)
	}
}
