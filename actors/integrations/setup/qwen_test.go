package setup

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQwen_InstallOnATempHome installs the Qwen Code hook into QWEN_HOME
// (else ~/.qwen): the script under hooks/, one SessionStart group in
// settings.json with a timeout in milliseconds (Qwen reads ms: 10 would
// kill the hook at once), the user's settings kept; uninstall takes only
// herdr's entry and script away.
func TestQwen_InstallOnATempHome(t *testing.T) {
	home, env := fakeEnv(t, nil)
	if _, err := Install("qwen", env); err == nil {
		t.Fatal("installed without ~/.qwen")
	}
	custom := filepath.Join(home, "qwen-home")
	_, env = fakeEnv(t, map[string]string{"QWEN_HOME": custom})
	write(t, filepath.Join(custom, "settings.json"), `{"model":{"name":"qwen3-coder-plus"},"hooks":{"SessionStart":[{"matcher":"*","hooks":[{"type":"command","command":"echo mine"}]}]}}`)
	if _, err := Install("qwen", env); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(custom, "hooks", "herdr-agent-state"+scriptExt)
	if st, err := os.Stat(script); err != nil || (scriptExt == ".sh" && st.Mode().Perm()&0o100 == 0) {
		t.Fatalf("hook script %s: %v %v", script, st, err)
	}
	var settings struct {
		Model any `json:"model"`
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(read(t, filepath.Join(custom, "settings.json"))), &settings); err != nil {
		t.Fatal(err)
	}
	groups := settings.Hooks["SessionStart"]
	if settings.Model == nil || len(groups) != 2 || groups[0].Hooks[0].Command != "echo mine" {
		t.Fatalf("settings after install: %+v", settings)
	}
	ours := groups[1]
	if ours.Matcher != "*" || len(ours.Hooks) != 1 || !strings.Contains(ours.Hooks[0].Command, script) ||
		!strings.HasSuffix(ours.Hooks[0].Command, " session") || ours.Hooks[0].Timeout != 10000 {
		t.Fatalf("herdr's SessionStart entry: %+v", ours)
	}
	if body := read(t, script); !strings.Contains(body, "herdr:qwen") || !strings.Contains(body, "session_id") {
		t.Errorf("the hook does not report qwen's session:\n%s", body)
	}
	if _, err := Uninstall("qwen", env); err != nil {
		t.Fatal(err)
	}
	if after := read(t, filepath.Join(custom, "settings.json")); strings.Contains(after, scriptBase) || !strings.Contains(after, "echo mine") {
		t.Errorf("settings after uninstall:\n%s", after)
	}
	if _, err := os.Stat(script); !os.IsNotExist(err) {
		t.Errorf("script left after uninstall: %v", err)
	}
}
