package plugins

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// examplePlugin is the worked example docs/plugins.md shows.
var examplePlugin = filepath.Join("..", "..", "docs", "examples", "plugin")

// The documented example works as the doc says: linked with the CLI into
// a real server, its open-tab action opens a tab through herdr's own CLI,
// and its tab.created hook then records that very tab in the plugin's
// state folder.
func TestE2E_PluginDoc_ExampleRuns(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the example's commands are sh scripts; it declares linux and macos only")
	}
	root, err := filepath.Abs(examplePlugin)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHome(t)
	s := h.Start(t, "plugdoc")
	s.CreateWorkspace(t, map[string]any{"cwd": h.Dir})
	out, stderr, code := s.CLI("plugin", "link", root)
	if code != 0 {
		t.Fatalf("plugin link: %d %s", code, stderr)
	}
	linked := OK[protocol.PluginLinked](t, CLIResponse(t, out), "plugin_linked").Plugin
	if linked.PluginID != "example.tab-notes" || !linked.Enabled || len(linked.Warnings) != 0 ||
		len(linked.Actions) != 2 || len(linked.Events) != 1 || len(linked.Panes) != 1 || len(linked.LinkHandlers) != 1 {
		t.Fatalf("linked %+v", linked)
	}

	out, stderr, code = s.CLI("plugin", "action", "invoke", "example.tab-notes", "open-tab")
	if code != 0 {
		t.Fatalf("plugin action invoke: %d %s", code, stderr)
	}
	inv := OK[protocol.PluginActionInvoked](t, CLIResponse(t, out), "plugin_action_invoked")
	if inv.Context.WorkspaceID == nil || *inv.Context.WorkspaceID != "w1" {
		t.Fatalf("invoked with context %+v", inv.Context)
	}
	var run protocol.PluginCommandLogInfo
	WaitFor(t, "the open-tab action to finish", func() bool {
		for _, l := range OK[protocol.PluginLogList](t, s.Call("plugin.log.list", map[string]any{"plugin_id": "example.tab-notes"}), "plugin_log_list").Logs {
			if l.LogID == inv.Log.LogID && l.Status != "running" {
				run = l
				return true
			}
		}
		return false
	})
	if run.Status != "succeeded" || run.Stdout == nil {
		t.Fatalf("open-tab run %+v", run)
	}
	tab := OK[protocol.TabCreated](t, CLIResponse(t, *run.Stdout), "tab_created").Tab
	if tab.WorkspaceID != "w1" || tab.Label != "notes" {
		t.Fatalf("the action made tab %+v", tab)
	}

	_, state := plugins.Dirs(filepath.Join(h.Dir, "c", "herdr"), filepath.Join(h.Dir, "s", "herdr"), "example.tab-notes")
	var seen []string
	WaitFor(t, "the tab.created hook to note tab "+tab.TabID, func() bool {
		b, err := os.ReadFile(filepath.Join(state, "tabs.jsonl"))
		if err != nil {
			return false
		}
		seen = seen[:0]
		for _, line := range Lines(string(b)) {
			var ev protocol.TabCreatedEvent
			if json.Unmarshal([]byte(line), &ev) == nil {
				seen = append(seen, ev.Tab.TabID+"/"+ev.Tab.Label)
			}
		}
		return slices.Contains(seen, tab.TabID+"/notes")
	})
}

// docSection is the text of docs/plugins.md under the "## " heading that
// holds title, up to the next such heading.
func docSection(t *testing.T, doc, title string) string {
	t.Helper()
	for _, part := range strings.Split(doc, "\n## ")[1:] {
		heading, _, _ := strings.Cut(part, "\n")
		if strings.Contains(heading, title) {
			return part
		}
	}
	t.Fatalf("docs/plugins.md has no section %q", title)
	return ""
}

// requireNamed fails for each name the section does not show as `name`.
func requireNamed(t *testing.T, section, where string, names []string) {
	t.Helper()
	for _, n := range names {
		if !strings.Contains(section, "`"+n+"`") {
			t.Errorf("docs/plugins.md, %s: `%s` is not documented", where, n)
		}
	}
}

// docs/plugins.md cannot fall behind the parser or the runtime: every key
// the manifest decoder reads is named in its table's section, as is every
// hook event, action context, pane placement and platform the validator
// accepts, every variable a plugin command is given and every field of
// the context JSON; and the manifest the doc shows is the example's, to
// the byte.
func TestPluginDoc_NamesEveryManifestField(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "plugins.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for group, keys := range plugins.ManifestKeys() {
		title := group
		if group == "" {
			title = "Top-level keys"
		}
		requireNamed(t, docSection(t, doc, title), title, keys)
	}
	requireNamed(t, docSection(t, doc, "Top-level keys"), "platforms", plugins.Platforms())
	requireNamed(t, docSection(t, doc, "[[events]]"), "hook events", plugins.HookEventNames())
	requireNamed(t, docSection(t, doc, "[[actions]]"), "action contexts", plugins.ActionContexts())
	requireNamed(t, docSection(t, doc, "[[panes]]"), "pane placements", plugins.PanePlacements())

	// The variables the plugins actor sets, read from its source so a new
	// one cannot go unmentioned.
	env := docSection(t, doc, "What a command is given")
	var vars []string
	for _, f := range []string{"plugins.go", "panes.go"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "actors", "plugins", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`"(HERDR_[A-Z_]+)[="]`).FindAllStringSubmatch(string(src), -1) {
			vars = append(vars, m[1])
		}
	}
	if len(vars) < 10 {
		t.Fatalf("found only %v in actors/plugins: has the source moved?", vars)
	}
	requireNamed(t, env, "environment", append(vars, plugins.TimeoutEnv))
	var fields []string
	ct := reflect.TypeFor[protocol.PluginInvocationContext]()
	for i := range ct.NumField() {
		name, _, _ := strings.Cut(ct.Field(i).Tag.Get("json"), ",")
		fields = append(fields, name)
	}
	requireNamed(t, env, "context JSON", fields)

	manifest, err := os.ReadFile(filepath.Join(examplePlugin, "herdr-plugin.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc, "```toml\n"+string(manifest)+"```\n") {
		t.Error("docs/plugins.md does not show docs/examples/plugin/herdr-plugin.toml as it is")
	}
}
