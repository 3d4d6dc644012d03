package cli

import (
	"strings"
	"testing"
)

// A table-built verb refuses what its tags forbid before any request: a
// usage error (exit 2) naming the flag, and the server is asked nothing.
func TestTableVerbs_RefuseBeforeRequest(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tab", "move", "w1:t1", "--index", "-1"}, "herdr: invalid --index -1: must not be negative (see 'herdr tab move --help')\n"},
		{[]string{"workspace", "move", "w1", "--index=-3"}, "herdr: invalid --index -3: must not be negative (see 'herdr workspace move --help')\n"},
		{[]string{"workspace", "move", "w1"}, "herdr: required flag(s) \"index\" not set (see 'herdr workspace move --help')\n"},
		{[]string{"workspace", "move-block"}, "herdr: missing argument <workspace> (see 'herdr workspace move-block --help')\n"},
		{[]string{"pane", "list", "extra"}, "unknown command: extra (see 'herdr pane list --help')\n"},
		{[]string{"pane", "neighbor", "--direction", "sideways"}, "herdr: invalid --direction \"sideways\": expected left, right, up or down (see 'herdr pane neighbor --help')\n"},
		{[]string{"pane", "layout", "w1:p1", "--current"}, "herdr: give the pane as an argument or with --pane/--current, not both (see 'herdr pane layout --help')\n"},
		{[]string{"pane", "edges", "--pane", "w1:p1", "--current"}, "herdr: --current and --pane cannot be used together (see 'herdr pane edges --help')\n"},
		{[]string{"buffer", "delete", ""}, "herdr: invalid params: buffer: missing required field (see 'herdr buffer delete --help')\n"},
		{[]string{"pane", "report-agent", "w1:p1", "--source", "my-hook", "--agent", "pi", "--state", "sleepy"}, "herdr: invalid params: state: expected one of [idle working blocked unknown], got \"sleepy\" (see 'herdr pane report-agent --help')\n"},
		{[]string{"task", "run", "--max-running", "0"}, "herdr: invalid params: max_running: expected 1 to 64, got 0 (see 'herdr task run --help')\n"},
		{[]string{"task", "remove", "nope"}, "herdr: invalid params: task_id: expected a task id (task-N), got \"nope\" (see 'herdr task remove --help')\n"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			f := startFake(t, "")
			r := run(t, f.envFor(t), c.args...)
			if r.code != 2 || r.stdout != "" || r.stderr != c.want {
				t.Errorf("exit %d stdout %q stderr %q, want 2 and %q", r.code, r.stdout, r.stderr, c.want)
			}
			if reqs := f.requests(); len(reqs) != 0 {
				t.Errorf("the server was asked %+v", reqs)
			}
		})
	}
}

// The usage line after the path in an entry's CLI is the verb's Use.
func TestCLIPath(t *testing.T) {
	cases := []struct{ cli, path, use string }{
		{"workspace get", "workspace get", ""},
		{"tab move <tab> --index N", "tab move", "<tab> --index N"},
		{"workspace move-block <workspace>... [--before WORKSPACE]", "workspace move-block", "<workspace>... [--before WORKSPACE]"},
		{"terminal title set", "terminal title set", ""},
	}
	for _, c := range cases {
		path, use := cliPath(c.cli)
		if strings.Join(path, " ") != c.path || use != c.use {
			t.Errorf("cliPath(%q) = %q, %q; want %q, %q", c.cli, path, use, c.path, c.use)
		}
	}
}

// An unchecked verb leaves the params' check to the server, whose error
// answer a script reads (exit 1), as Herdr's: an unknown key is invalid_key.
func TestTableVerbs_ServerChecks(t *testing.T) {
	f := startFake(t, "")
	f.replies["pane.send_keys"] = `{"id":%[1]s,"error":{"code":"invalid_key","message":"invalid key"}}`
	r := run(t, f.envFor(t), "pane", "send-keys", "w1:p2", "ctrl+nosuchkey")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `"invalid_key"`) {
		t.Errorf("exit %d stdout %q stderr %q, want 1 and the error answer", r.code, r.stdout, r.stderr)
	}
	reqs := f.requests()
	if len(reqs) != 2 || reqs[1].Method != "pane.send_keys" {
		t.Errorf("requests %+v, want ping and pane.send_keys", reqs)
	}
}
