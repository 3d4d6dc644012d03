package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestLayoutVerbsSendMethodAndParams checks the request of every layout and
// structure verb against the echoing fake server, and that the response line
// is printed on stdout.
func TestLayoutVerbsSendMethodAndParams(t *testing.T) {
	dir, err := os.MkdirTemp("", "hlay")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	tree := `{"type":"split","direction":"right","ratio":0.5,"first":{"type":"pane","cwd":"/tmp","label":"a"},"second":{"type":"pane","command":["sh","-c","echo hi"],"env":{"K":"V"}}}`
	wantTree := tree
	files := map[string]string{
		"node.json":     tree,
		"export.json":   `{"id":"cli:layout:export","result":{"type":"layout_export","layout":{"workspace_id":"w1","tab_id":"w1:t1","zoomed":false,"focused_pane_id":"w1:p1","root":` + tree + `}}}` + "\n",
		"desc.json":     `{"workspace_id":"w1","tab_id":"w1:t1","zoomed":false,"focused_pane_id":"w1:p1","root":` + tree + `}`,
		"withroot.json": `{"root":` + tree + `}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	pane := map[string]string{"HERDR_PANE_ID": "w1:p3"}
	cases := []struct {
		args   []string
		env    map[string]string
		stdin  string
		id     string
		method string
		params string
	}{
		{args: []string{"pane", "layout"}, env: pane, id: "cli:pane:layout", method: "pane.layout", params: `{}`},
		{args: []string{"pane", "layout", "--current"}, env: pane, id: "cli:pane:layout", method: "pane.layout", params: `{"pane_id":"w1:p3"}`},
		{args: []string{"pane", "layout", "--pane", "w1:p2"}, id: "cli:pane:layout", method: "pane.layout", params: `{"pane_id":"w1:p2"}`},
		{args: []string{"pane", "edges", "--pane", "w1:p2"}, id: "cli:pane:edges", method: "pane.edges", params: `{"pane_id":"w1:p2"}`},
		{args: []string{"pane", "edges"}, id: "cli:pane:edges", method: "pane.edges", params: `{}`},
		{args: []string{"pane", "neighbor", "--direction", "up"}, id: "cli:pane:neighbor", method: "pane.neighbor", params: `{"direction":"up"}`},
		{args: []string{"pane", "neighbor", "--direction", "left", "--current"}, env: pane, id: "cli:pane:neighbor", method: "pane.neighbor", params: `{"direction":"left","pane_id":"w1:p3"}`},
		{args: []string{"pane", "focus", "w1:p2"}, id: "cli:pane:focus", method: "pane.focus", params: `{"pane_id":"w1:p2"}`},
		{args: []string{"pane", "focus", "--direction", "down", "--pane", "w1:p1"}, id: "cli:pane:focus", method: "pane.focus_direction", params: `{"direction":"down","pane_id":"w1:p1"}`},
		{args: []string{"pane", "focus", "--direction", "right"}, id: "cli:pane:focus", method: "pane.focus_direction", params: `{"direction":"right"}`},
		{args: []string{"pane", "resize", "--direction", "right"}, id: "cli:pane:resize", method: "pane.resize", params: `{"direction":"right"}`},
		{args: []string{"pane", "resize", "--direction", "up", "--amount", "0.2", "--pane", "w1:p2"}, id: "cli:pane:resize", method: "pane.resize", params: `{"direction":"up","amount":0.2,"pane_id":"w1:p2"}`},
		{args: []string{"pane", "zoom"}, id: "cli:pane:zoom", method: "pane.zoom", params: `{"mode":"toggle"}`},
		{args: []string{"pane", "zoom", "w1:p2", "--on"}, id: "cli:pane:zoom", method: "pane.zoom", params: `{"mode":"on","pane_id":"w1:p2"}`},
		{args: []string{"pane", "zoom", "--pane", "w1:p2", "--off"}, id: "cli:pane:zoom", method: "pane.zoom", params: `{"mode":"off","pane_id":"w1:p2"}`},
		{args: []string{"pane", "zoom", "--current", "--toggle"}, env: pane, id: "cli:pane:zoom", method: "pane.zoom", params: `{"mode":"toggle","pane_id":"w1:p3"}`},
		{args: []string{"pane", "input", "w1:p2", "--right-click", "pane"}, id: "cli:pane:input", method: "pane.input.set", params: `{"pane_id":"w1:p2","right_click":"pane"}`},
		{args: []string{"pane", "input", "--current", "--right-click", "herdr"}, env: pane, id: "cli:pane:input", method: "pane.input.set", params: `{"pane_id":"w1:p3","right_click":"herdr"}`},
		{args: []string{"pane", "split", "w1:p1", "--direction", "down", "--right-click", "pane"}, id: "cli:pane:split", method: "pane.split", params: `{"direction":"down","target_pane_id":"w1:p1","right_click":"pane"}`},
		{args: []string{"pane", "swap", "--direction", "left"}, id: "cli:pane:swap", method: "pane.swap", params: `{"direction":"left"}`},
		{args: []string{"pane", "swap", "--direction", "down", "--current"}, env: pane, id: "cli:pane:swap", method: "pane.swap", params: `{"direction":"down","pane_id":"w1:p3"}`},
		{args: []string{"pane", "swap", "--source-pane", "w1:p1", "--target-pane", "w1:p2"}, id: "cli:pane:swap", method: "pane.swap", params: `{"source_pane_id":"w1:p1","target_pane_id":"w1:p2"}`},
		{args: []string{"pane", "swap", "--target-pane", "w1:p2"}, id: "cli:pane:swap", method: "pane.swap", params: `{"target_pane_id":"w1:p2"}`},
		{args: []string{"pane", "move", "w1:p2", "--tab", "w1:t2", "--split", "right"}, id: "cli:pane:move", method: "pane.move",
			params: `{"pane_id":"w1:p2","destination":{"type":"tab","tab_id":"w1:t2","split":"right"}}`},
		{args: []string{"pane", "move", "w1:p2", "--tab", "w1:t2", "--split", "down", "--target-pane", "w1:p5", "--ratio", "0.3", "--focus"}, id: "cli:pane:move", method: "pane.move",
			params: `{"pane_id":"w1:p2","destination":{"type":"tab","tab_id":"w1:t2","split":"down","target_pane_id":"w1:p5","ratio":0.3},"focus":true}`},
		{args: []string{"pane", "move", "w1:p2", "--new-tab"}, id: "cli:pane:move", method: "pane.move",
			params: `{"pane_id":"w1:p2","destination":{"type":"new_tab"}}`},
		{args: []string{"pane", "move", "w1:p2", "--new-tab", "--workspace", "w2", "--label", "logs", "--no-focus"}, id: "cli:pane:move", method: "pane.move",
			params: `{"pane_id":"w1:p2","destination":{"type":"new_tab","workspace_id":"w2","label":"logs"}}`},
		{args: []string{"pane", "move", "w1:p2", "--new-workspace", "--label", "api", "--tab-label", "srv", "--focus"}, id: "cli:pane:move", method: "pane.move",
			params: `{"pane_id":"w1:p2","destination":{"type":"new_workspace","label":"api","tab_label":"srv"},"focus":true}`},

		{args: []string{"workspace", "move", "w3", "--index", "0"}, id: "cli:workspace:move", method: "workspace.move", params: `{"workspace_id":"w3","insert_index":0}`},
		{args: []string{"ws", "move", "w1", "--index", "7"}, id: "cli:workspace:move", method: "workspace.move", params: `{"workspace_id":"w1","insert_index":7}`},
		{args: []string{"workspace", "move-block", "w4", "w2"}, id: "cli:workspace:move-block", method: "workspace.move_block", params: `{"workspace_ids":["w4","w2"]}`},
		{args: []string{"workspace", "move-block", "w4", "w2", "--before", "w1"}, id: "cli:workspace:move-block", method: "workspace.move_block",
			params: `{"workspace_ids":["w4","w2"],"before_workspace_id":"w1"}`},
		{args: []string{"tab", "move", "w1:t3", "--index", "1"}, id: "cli:tab:move", method: "tab.move", params: `{"tab_id":"w1:t3","insert_index":1}`},

		{args: []string{"layout", "export"}, id: "cli:layout:export", method: "layout.export", params: `{}`},
		{args: []string{"layout", "export", "--tab", "w1:t2"}, id: "cli:layout:export", method: "layout.export", params: `{"tab_id":"w1:t2"}`},
		{args: []string{"layout", "export", "--pane", "w1:p2"}, id: "cli:layout:export", method: "layout.export", params: `{"pane_id":"w1:p2"}`},
		{args: []string{"layout", "apply", "--file", filepath.Join(dir, "node.json")}, id: "cli:layout:apply", method: "layout.apply", params: `{"root":` + wantTree + `}`},
		{args: []string{"layout", "apply", "--file", filepath.Join(dir, "export.json"), "--workspace", "w2", "--tab-label", "dev", "--focus"}, id: "cli:layout:apply", method: "layout.apply",
			params: `{"root":` + wantTree + `,"workspace_id":"w2","tab_label":"dev","focus":true}`},
		{args: []string{"layout", "apply", "--file", filepath.Join(dir, "desc.json"), "--tab", "w1:t1"}, id: "cli:layout:apply", method: "layout.apply", params: `{"root":` + wantTree + `,"tab_id":"w1:t1"}`},
		{args: []string{"layout", "apply", "--file", filepath.Join(dir, "withroot.json")}, id: "cli:layout:apply", method: "layout.apply", params: `{"root":` + wantTree + `}`},
		{args: []string{"layout", "apply", "--file", "-"}, stdin: tree, id: "cli:layout:apply", method: "layout.apply", params: `{"root":` + wantTree + `}`},
		// An invalid tree goes to the server, which answers invalid_layout.
		{args: []string{"layout", "apply", "--file", "-"}, stdin: `{"type":"triangle"}`, id: "cli:layout:apply", method: "layout.apply", params: `{"root":{"type":"triangle"}}`},
		{args: []string{"layout", "set-ratio", "--ratio", "0.3"}, id: "cli:layout:set-ratio", method: "layout.set_split_ratio", params: `{"path":[],"ratio":0.3}`},
		{args: []string{"layout", "set-ratio", "--tab", "w1:t1", "--path", "root", "--ratio", "0.7"}, id: "cli:layout:set-ratio", method: "layout.set_split_ratio",
			params: `{"path":[],"ratio":0.7,"tab_id":"w1:t1"}`},
		{args: []string{"layout", "set-ratio", "--pane", "w1:p2", "--path", "1, 0,1", "--ratio", "0.25"}, id: "cli:layout:set-ratio", method: "layout.set_split_ratio",
			params: `{"path":[true,false,true],"ratio":0.25,"pane_id":"w1:p2"}`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			f := startFake(t, "")
			env := f.envFor(t)
			for k, v := range c.env {
				env[k] = v
			}
			var out, errb bytes.Buffer
			code := Main(testRuntime, c.args, strings.NewReader(c.stdin), &out, &errb, env.get)
			if code != 0 || errb.Len() != 0 {
				t.Fatalf("exit %d stderr %q", code, errb.String())
			}
			reqs := f.requests()
			if len(reqs) != 2 || reqs[0].Method != "ping" {
				t.Fatalf("requests %+v, want ping and one request", reqs)
			}
			if reqs[1].ID != c.id || reqs[1].Method != c.method {
				t.Errorf("sent id %q method %q, want %q %q", reqs[1].ID, reqs[1].Method, c.id, c.method)
			}
			if !sameJSON(t, reqs[1].Params, []byte(c.params)) {
				t.Errorf("params %s, want %s", reqs[1].Params, c.params)
			}
			if s := out.String(); strings.Count(s, "\n") != 1 || !strings.Contains(s, `"method":"`+c.method+`"`) {
				t.Errorf("stdout %q is not the response line", s)
			}
		})
	}
}

func TestLayoutVerbsUsageErrorsExit2(t *testing.T) {
	f := startFake(t, "")
	env := f.envFor(t)
	missing := filepath.Join(env["HOME"], "missing.json")
	cases := [][]string{
		{"pane", "layout", "w1:p1", "--pane", "w1:p2"}, // the pane given twice (the argument alone is fine)
		{"pane", "layout", "--pane", "w1:p1", "--current"},
		{"pane", "edges", "--bogus"},
		{"pane", "neighbor"},
		{"pane", "neighbor", "--direction", "north"},
		{"pane", "focus"},
		{"pane", "focus", "w1:p1", "w1:p2"},
		{"pane", "focus", "w1:p1", "--direction", "left"},
		{"pane", "focus", "--pane", "w1:p1"},
		{"pane", "focus", "--direction", "sideways"},
		{"pane", "resize"},
		{"pane", "resize", "--direction", "in"},
		{"pane", "resize", "--direction", "left", "--amount", "lots"},
		{"pane", "zoom", "--on", "--off"},
		{"pane", "zoom", "w1:p1", "--pane", "w1:p2"},
		{"pane", "zoom", "--current"}, // no $HERDR_PANE_ID
		{"pane", "zoom", "w1:p1", "w1:p2"},
		{"pane", "input", "w1:p1"},
		{"pane", "input", "--right-click", "pane"}, // no target
		{"pane", "input", "w1:p1", "--right-click", "mouse"},
		{"pane", "split", "w1:p1", "--direction", "down", "--right-click", "mouse"},
		{"pane", "swap"},
		{"pane", "swap", "--direction", "left", "--target-pane", "w1:p2"},
		{"pane", "swap", "--direction", "diagonal"},
		{"pane", "swap", "--source-pane", "w1:p1"},
		{"pane", "swap", "--source-pane", "w1:p1", "--target-pane", "w1:p2", "--pane", "w1:p3"},
		{"pane", "move", "w1:p1"},
		{"pane", "move", "--new-tab"},
		{"pane", "move", "w1:p1", "--tab", "w1:t2"},
		{"pane", "move", "w1:p1", "--tab", "w1:t2", "--split", "left"},
		{"pane", "move", "w1:p1", "--tab", "w1:t2", "--new-tab"},
		{"pane", "move", "w1:p1", "--new-tab", "--new-workspace"},
		{"pane", "move", "w1:p1", "--new-tab", "--split", "right"},
		{"pane", "move", "w1:p1", "--new-tab", "--tab-label", "x"},
		{"pane", "move", "w1:p1", "--new-workspace", "--workspace", "w2"},
		{"pane", "move", "w1:p1", "--tab", "w1:t2", "--split", "right", "--label", "x"},
		{"pane", "move", "w1:p1", "--new-tab", "--focus", "--no-focus"},
		{"pane", "move", "w1:p1", "--new-tab=false"},
		{"workspace", "move", "w1"},
		{"workspace", "move", "--index", "1"},
		{"workspace", "move", "w1", "--index", "-1"},
		{"workspace", "move", "w1", "--index", "first"},
		{"workspace", "move-block"},
		{"tab", "move", "w1:t1"},
		{"tab", "move", "w1:t1", "--index", "-2"},
		{"layout", "export", "--tab", "w1:t1", "--pane", "w1:p1"},
		{"layout", "export", "w1:t1"},
		{"layout", "apply"},
		{"layout", "apply", "--file", missing},
		{"layout", "apply", "--file", ""},
		{"layout", "set-ratio"},
		{"layout", "set-ratio", "--ratio", "0.5", "--path", "0,2"},
		{"layout", "set-ratio", "--ratio", "0.5", "--path", "left"},
		{"layout", "set-ratio", "--ratio", "half"},
		{"layout", "nosuchverb"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := run(t, env, args...)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2 (stdout %q stderr %q)", r.code, r.stdout, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want empty", r.stdout)
			}
			if !(strings.HasPrefix(r.stderr, "herdr: ") || strings.HasPrefix(r.stderr, "unknown ")) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("stderr %q, want one usage line", r.stderr)
			}
		})
	}
	// Unparsable layout JSON on stdin is a usage error too.
	var out, errb bytes.Buffer
	if code := Main(testRuntime, []string{"layout", "apply", "--file", "-"}, strings.NewReader("{not json"), &out, &errb, env.get); code != 2 || out.Len() != 0 {
		t.Errorf("bad JSON on stdin: exit %d stdout %q stderr %q, want 2", code, out.String(), errb.String())
	}
	if reqs := f.requests(); len(reqs) != 0 {
		t.Errorf("usage errors reached the server: %+v", reqs)
	}
}

func TestLayoutVerbsHelp(t *testing.T) {
	env := newEnv(t)
	for _, args := range [][]string{
		{"layout", "--help"}, {"layout", "help"}, {"layout", "apply", "--help"}, {"layout", "export", "--help"}, {"layout", "set-ratio", "--help"},
		{"pane", "layout", "--help"}, {"pane", "edges", "--help"}, {"pane", "neighbor", "--help"}, {"pane", "focus", "--help"},
		{"pane", "resize", "--help"}, {"pane", "zoom", "--help"}, {"pane", "input", "--help"}, {"pane", "swap", "--help"},
		{"pane", "move", "--help"}, {"workspace", "move", "--help"}, {"workspace", "move-block", "--help"}, {"tab", "move", "--help"},
	} {
		r := run(t, env, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Usage:") || r.stderr != "" {
			t.Errorf("%v: exit %d stdout %.60q stderr %q; want help on stdout, exit 0", args, r.code, r.stdout, r.stderr)
		}
	}
	r := run(t, env, "layout")
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "herdr layout") {
		t.Errorf("bare layout group: exit %d stdout %q stderr %q; want help on stderr, exit 2", r.code, r.stdout, r.stderr)
	}
}

func TestParseSplitPath(t *testing.T) {
	for in, want := range map[string][]bool{
		"": {}, "root": {}, "0": {false}, "1": {true}, "0,1": {false, true}, " 1 , 1 ,0 ": {true, true, false},
	} {
		got, err := parseSplitPath(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("parseSplitPath(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"2", "0,,1", "true", "0;1", "root,0"} {
		if _, err := parseSplitPath(in); err == nil {
			t.Errorf("parseSplitPath(%q) accepted", in)
		}
	}
}
