package plugins

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

func writeManifest(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "herdr-plugin.toml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const head = "id = \"x.y\"\nname = \"X\"\nversion = \"1.0.0\"\nmin_herdr_version = \"0.1.0\"\nplatforms = [\"linux\", \"macos\", \"windows\"]\n"

// actionA is a valid action that link handlers may name.
const actionA = "[[actions]]\nid = \"a\"\ntitle = \"A\"\ncommand = [\"true\"]\n"

// One bad manifest per error code.
func TestLoadManifest_Errors(t *testing.T) {
	for code, body := range map[string]string{
		"invalid_plugin_id":                   strings.Replace(head, `"x.y"`, `"x y"`, 1),
		"invalid_plugin_name":                 strings.Replace(head, `"X"`, `" "`, 1),
		"invalid_plugin_version":              strings.Replace(head, `"1.0.0"`, `"one"`, 1),
		"invalid_plugin_min_herdr_version":    strings.Replace(head, `"0.1.0"`, `"soon"`, 1),
		"plugin_requires_newer_herdr":         strings.Replace(head, `"0.1.0"`, `"99.0.0"`, 1),
		"invalid_plugin_platform":             strings.Replace(head, `"windows"`, `"plan9"`, 1),
		"invalid_plugin_command":              head + "[[actions]]\nid = \"a\"\ntitle = \"A\"\ncommand = []\n",
		"invalid_plugin_action_id":            head + "[[actions]]\nid = \"a.b\"\ntitle = \"A\"\ncommand = [\"true\"]\n",
		"duplicate_plugin_action_id":          head + "[[actions]]\nid = \"a\"\ntitle = \"A\"\ncommand = [\"true\"]\n[[actions]]\nid = \"a\"\ntitle = \"B\"\ncommand = [\"true\"]\n",
		"invalid_plugin_action_context":       head + "[[actions]]\nid = \"a\"\ntitle = \"A\"\ncontexts = [\"everywhere\"]\ncommand = [\"true\"]\n",
		"invalid_plugin_event":                head + "[[events]]\non = \"\"\ncommand = [\"true\"]\n",
		"invalid_plugin_pane_placement":       head + "[[panes]]\nid = \"p\"\ntitle = \"P\"\nplacement = \"sideways\"\ncommand = [\"true\"]\n",
		"invalid_plugin_link_handler_pattern": head + "[[link_handlers]]\nid = \"l\"\ntitle = \"L\"\npattern = \"(\"\naction = \"a\"\n",
		"invalid_plugin_link_handler_action":  head + "[[link_handlers]]\nid = \"l\"\ntitle = \"L\"\npattern = \"x\"\naction = \"nope\"\n",
		"invalid_plugin_link_handler_title":   head + "[[link_handlers]]\nid = \"l\"\ntitle = \" \"\npattern = \"x\"\naction = \"a\"\n",
		"invalid_plugin_pane_size":            head + "[[panes]]\nid = \"p\"\ntitle = \"P\"\nplacement = \"popup\"\nwidth = \"120\"\ncommand = [\"true\"]\n",
		"plugin_manifest_parse_failed":        head + "[[actions]\n",
		"invalid_plugin_action_title":         head + "[[actions]]\nid = \"a\"\ntitle = \"  \"\ncommand = [\"true\"]\n",
		"invalid_plugin_pane_id":              head + "[[panes]]\nid = \"p.q\"\ntitle = \"P\"\ncommand = [\"true\"]\n",
		"duplicate_plugin_pane_id":            head + "[[panes]]\nid = \"p\"\ntitle = \"P\"\ncommand = [\"true\"]\n[[panes]]\nid = \"p\"\ntitle = \"Q\"\ncommand = [\"true\"]\n",
		"invalid_plugin_link_handler_id":      head + actionA + "[[link_handlers]]\nid = \"\"\ntitle = \"L\"\npattern = \"x\"\naction = \"a\"\n",
		"duplicate_plugin_link_handler_id":    head + actionA + strings.Repeat("[[link_handlers]]\nid = \"l\"\ntitle = \"L\"\npattern = \"x\"\naction = \"a\"\n", 2),
	} {
		_, err := LoadManifest(writeManifest(t, body))
		if got := protocol.AsError(err).Code; got != code {
			t.Errorf("%s: got %v", code, err)
		}
	}
	if _, err := LoadManifest(filepath.Join(t.TempDir(), "none.toml")); protocol.AsError(err).Code != protocol.CodePluginManifestRead {
		t.Errorf("missing file: %v", err)
	}
}

func TestLoadManifest_Warnings(t *testing.T) {
	body := strings.Replace(head, "platforms = [\"linux\", \"macos\", \"windows\"]\n", "", 1) + "[[events]]\non = \"worktree.created\"\ncommand = [\"true\"]\n"
	info, err := LoadManifest(writeManifest(t, body))
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Warnings) != 1 || !strings.Contains(info.Warnings[0], "no platforms") {
		t.Fatalf("warnings %q", info.Warnings)
	}
}

// An [[events]] on that names no event hooks run on does not stop the
// plugin, as in Herdr: it links, and its info carries one warning per
// name (a typo or the wire's underscore kind: unknown; a high-volume or
// dedicated event: it runs no hooks), the name escaped so no byte of it
// acts on a terminal. An empty on is still an error.
func TestLoadManifest_EventWarnings(t *testing.T) {
	for on, want := range map[string]string{
		"worktree.craeted":                     "unknown event 'worktree.craeted'",
		"pane_created":                         "unknown event 'pane_created'",
		"nonsense":                             "unknown event 'nonsense'",
		"workspace.metadata_updated":           "event 'workspace.metadata_updated' runs no plugin hooks",
		"pane.output_changed":                  "event 'pane.output_changed' runs no plugin hooks",
		"pane.updated":                         "event 'pane.updated' runs no plugin hooks",
		"layout.updated":                       "event 'layout.updated' runs no plugin hooks",
		"pane.output_matched":                  "event 'pane.output_matched' runs no plugin hooks",
		"pane.scroll_changed":                  "event 'pane.scroll_changed' runs no plugin hooks",
		"\\u001b]52;c;aGk=\\u0007pane.created": "unknown event '\\x1b]52;c;aGk=\\apane.created'",
	} {
		info, err := LoadManifest(writeManifest(t, head+"[[events]]\non = \""+on+"\"\ncommand = [\"true\"]\n"))
		if err != nil {
			t.Fatalf("on = %q: refused: %v", on, err)
		}
		if len(info.Warnings) != 1 || !strings.HasPrefix(info.Warnings[0], want) || strings.ContainsAny(info.Warnings[0], "\x1b\x07") {
			t.Fatalf("on = %q: warnings %q, want one starting %q", on, info.Warnings, want)
		}
		if len(info.Events) != 1 {
			t.Fatalf("on = %q: the hook was not kept: %+v", on, info.Events)
		}
	}
	// The seeds' example, exactly; a name twice is one warning.
	info, err := LoadManifest(writeManifest(t, head+strings.Repeat("[[events]]\non = \"worktree.craeted\"\ncommand = [\"true\"]\n", 2)))
	if err != nil || len(info.Warnings) != 1 || info.Warnings[0] != "unknown event 'worktree.craeted'" {
		t.Fatalf("twice: %q %v", info.Warnings, err)
	}
	for on := range HookEvents() {
		info, err := LoadManifest(writeManifest(t, head+"[[events]]\non = \""+on+"\"\ncommand = [\"true\"]\n"))
		if err != nil || len(info.Warnings) != 0 {
			t.Fatalf("on = %q: %v %q", on, err, info.Warnings)
		}
	}
	if h := HookEvents(); len(h) != 27 || !h["agent.queue_changed"] || !h["worktree.created"] || !h["task.created"] || !h["task.removed"] || !h["pane.agent_status_changed"] || h["pane.updated"] {
		t.Fatalf("hook events %v", HookEvents())
	}
	// An empty on, or a bad command under an unknown one, is still an error.
	for _, body := range []string{"[[events]]\non = \" \"\ncommand = [\"true\"]\n", "[[events]]\non = \"worktree.craeted\"\ncommand = []\n"} {
		if _, err := LoadManifest(writeManifest(t, head+body)); err == nil {
			t.Fatalf("%q linked", body)
		}
	}
}

// A registry re-read at start keeps a plugin whose hook names an unknown
// event, with its warning.
func TestOpenRegistry_KeepsEventWarnings(t *testing.T) {
	path := writeManifest(t, head+"[[events]]\non = \"worktree.craeted\"\ncommand = [\"true\"]\n")
	info, err := LoadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(t.TempDir(), "plugins.json")
	r, _ := OpenRegistry(reg)
	r.Put(info)
	data, _ := r.Encode()
	if err := WriteRegistry(reg, data); err != nil {
		t.Fatal(err)
	}
	again, err := OpenRegistry(reg)
	if err != nil || len(again.Plugins) != 1 || !slices.Equal(again.Plugins[0].Warnings, []string{"unknown event 'worktree.craeted'"}) {
		t.Fatalf("reopened: %+v %v", again.Plugins, err)
	}
}

// A plugin id names its config and state folders: "." and ".." (the state
// folder would be herdr's own), a leading dot or dash, ".." anywhere and
// more than 120 characters are refused; Herdr's ids are not.
func TestLoadManifest_IDGrammar(t *testing.T) {
	for _, id := range []string{".", "..", "...", "a..b", "../x", ".hidden", "-x", "_x", ":x", "x/y", "x y", "", strings.Repeat("a", MaxIDLength+1)} {
		_, err := LoadManifest(writeManifest(t, strings.Replace(head, `"x.y"`, strconv.Quote(id), 1)))
		if protocol.AsError(err).Code != "invalid_plugin_id" {
			t.Errorf("id %q: %v", id, err)
		}
		if ValidID(id) || MakeDirs(t.TempDir(), t.TempDir(), id) == nil {
			t.Errorf("id %q is valid", id)
		}
	}
	for _, id := range []string{"x", "x.y", "test.worktree-notes", "Acme:tool_2-b", "0x.", strings.Repeat("a", MaxIDLength)} {
		if _, err := LoadManifest(writeManifest(t, strings.Replace(head, `"x.y"`, strconv.Quote(id), 1))); err != nil {
			t.Errorf("id %q: %v", id, err)
		}
	}
}

// plugins.json entries whose id is not a plugin id are refused, saying
// why; the others load.
func TestOpenRegistry_RefusesBadIDs(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "plugins.json")
	gone := filepath.Join(dir, "gone", "herdr-plugin.toml")
	body := `[{"plugin_id":"..","name":"Up","version":"1.0.0","min_herdr_version":"0.1.0","manifest_path":"` + gone + `","plugin_root":"` + dir + `","enabled":true,"build":[],"startup":[],"actions":[],"events":[],"panes":[],"link_handlers":[],"warnings":[]},
{"plugin_id":".","name":"Here","version":"1.0.0","min_herdr_version":"0.1.0","manifest_path":"` + gone + `","plugin_root":"` + dir + `","enabled":true,"build":[],"startup":[],"actions":[],"events":[],"panes":[],"link_handlers":[],"warnings":[]},
{"plugin_id":"ok","name":"Ok","version":"1.0.0","min_herdr_version":"0.1.0","manifest_path":"` + gone + `","plugin_root":"` + dir + `","enabled":true,"build":[],"startup":[],"actions":[],"events":[],"panes":[],"link_handlers":[],"warnings":[]}]`
	if err := os.WriteFile(reg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRegistry(reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Plugins) != 1 || r.Plugins[0].PluginID != "ok" {
		t.Fatalf("loaded %+v", r.Plugins)
	}
	if len(r.Refused) != 2 || !strings.Contains(r.Refused[0], `plugin id ".."`) || !strings.Contains(r.Refused[1], `plugin id "."`) {
		t.Fatalf("refused %q", r.Refused)
	}
}

// A registry keeps a plugin whose manifest went away, saying why.
func TestRegistry_RoundTripAndMissingManifest(t *testing.T) {
	path := writeManifest(t, head)
	info, err := LoadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(t.TempDir(), "plugins.json")
	r, _ := OpenRegistry(reg)
	info.Enabled = false
	r.Put(info)
	data, _ := r.Encode()
	if err := WriteRegistry(reg, data); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(reg), ".plugins.lock")); !os.IsNotExist(err) {
		t.Fatal("the lock file was left behind")
	}
	again, err := OpenRegistry(reg)
	if err != nil || len(again.Plugins) != 1 || again.Plugins[0].Enabled {
		t.Fatalf("reopened: %+v %v", again.Plugins, err)
	}
	os.Remove(path)
	gone, _ := OpenRegistry(reg)
	if len(gone.Plugins) != 1 || !strings.HasPrefix(gone.Plugins[0].Warnings[len(gone.Plugins[0].Warnings)-1], "manifest unavailable: ") {
		t.Fatalf("missing manifest: %+v", gone.Plugins)
	}
}

// The command timeout comes from HERDR_PLUGIN_TIMEOUT_MS when that is a
// positive number of milliseconds, else it is Herdr's 60 s.
func TestCommandTimeout_FromEnv(t *testing.T) {
	for value, want := range map[string]time.Duration{
		"250": 250 * time.Millisecond, " 1500 ": 1500 * time.Millisecond,
		"": DefaultCommandTimeout, "0": DefaultCommandTimeout, "-5": DefaultCommandTimeout, "soon": DefaultCommandTimeout,
	} {
		env := func(k string) string {
			if k == TimeoutEnv {
				return value
			}
			return ""
		}
		if got := CommandTimeout(env); got != want {
			t.Errorf("%s=%q: got %v, want %v", TimeoutEnv, value, got, want)
		}
	}
}
