package tuinav

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Notifications that reach the person (issue 17): [ui.toast] delivery
// terminal writes OSC 777 and OSC 9 to the outer terminal, system runs the
// platform's notifier, herdr draws a toast in the configured corner;
// sounds go through the platform player.

// fakeCommand puts an executable name in dir that appends its arguments,
// one line per run, to dir/name.log.
func fakeCommand(t *testing.T, dir, name string) string {
	t.Helper()
	log := filepath.Join(dir, name+".log")
	script := "#!/bin/sh\necho \"$*\" >> '" + log + "'\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return log
}

func readLog(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

func TestTUI_NotifyTerminalWritesOSC(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui.toast]\ndelivery = \"terminal\"\n[ui.sound]\nenabled = false\n")
	s := h.Start(t, "osc")
	c := AttachWith(t, h, "osc")
	NotifyShown(t, s, map[string]any{"title": "Build done", "body": "api; 3 tests"})
	WaitFor(t, "OSC 777 and OSC 9 on the outer terminal", func() bool {
		out := c.Output()
		return strings.Contains(out, "\x1b]777;notify;Build done;api, 3 tests\x1b\\") &&
			strings.Contains(out, "\x1b]9;Build done: api, 3 tests\x1b\\")
	})
	if strings.Contains(c.Screen(), "Build done") {
		t.Errorf("terminal delivery drew an in-app toast:\n%s", c.Screen())
	}
}

func TestTUI_NotifySystemRunsNotifier(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui.toast]\ndelivery = \"system\"\ndelay_seconds = 0\n")
	s := h.Start(t, "sys")
	bin := t.TempDir()
	calls := fakeCommand(t, bin, "notify-send")
	sounds := fakeCommand(t, bin, "paplay")
	c := AttachWith(t, h, "sys", "PATH="+bin+":"+os.Getenv("PATH"), "DISPLAY=:99")
	NotifyShown(t, s, map[string]any{"title": "Deploy", "body": "staging", "sound": "request"})
	WaitFor(t, "notify-send called", func() bool { return strings.Contains(readLog(calls), "--app-name=herdr -- Deploy staging") })
	WaitFor(t, "the request tone played", func() bool { return strings.HasSuffix(strings.TrimSpace(readLog(sounds)), "request.wav") })

	// An agent out of sight (another tab) that becomes blocked notifies.
	OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1", "focus": false}), "tab_created")
	snap := SessionSnapshot(t, s)
	other := ""
	for _, p := range snap.Panes {
		if p.TabID != *snap.FocusedTabID {
			other = p.PaneID
		}
	}
	for _, st := range []string{"working", "blocked"} {
		OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": other, "source": "notify-test", "agent": "claude", "state": st}), "ok")
	}
	WaitFor(t, "the blocked agent notified", func() bool { return strings.Contains(readLog(calls), "claude needs attention") })
	if strings.Contains(c.Screen(), "needs attention") {
		t.Errorf("system delivery drew an in-app toast")
	}
}

func TestTUI_NotifySystemAbsentSaysSoOnce(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui.toast]\ndelivery = \"system\"\n")
	s := h.Start(t, "nosys")
	c := AttachWith(t, h, "nosys", "HERDR_DISABLE_SOUND=1") // no DISPLAY: no desktop session
	NotifyShown(t, s, map[string]any{"title": "First"})
	c.WaitText(t, "system notifications: notify-send: no desktop session")
	out := c.Output()
	if strings.Contains(out, "\a") && !strings.Contains(out, "\x1b]") {
		t.Errorf("a bell rang with sounds disabled")
	}
}

func TestTUI_NotifyHerdrCornerAndSoundSwitch(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui.toast]\ndelivery = \"herdr\"\n[ui.toast.herdr]\nposition = \"top-left\"\n")
	s := h.Start(t, "corner")
	bin := t.TempDir()
	sounds := fakeCommand(t, bin, "paplay")
	c := AttachWith(t, h, "corner", "PATH="+bin+":"+os.Getenv("PATH"), "HERDR_DISABLE_SOUND=1")
	NotifyShown(t, s, map[string]any{"title": "Corner", "body": "top left", "sound": "done"})
	screen := c.WaitText(t, "Corner: top left")
	if row := Lines(screen)[2]; CellsTo(row, strings.Index(row, "Corner")) != 3 {
		t.Errorf("toast not in the top-left corner: %q", row)
	}
	// While it is up, another is refused as busy (after the 1 s rate limit).
	WaitFor(t, "busy", func() bool {
		r := OK[protocol.NotificationShown](t, s.Call("notification.show", map[string]any{"title": "Second"}), "notification_show")
		return r.Reason == protocol.NotifyBusy
	})
	// The position a call asks for wins.
	WaitFor(t, "the corner free again", func() bool {
		return OK[protocol.NotificationShown](t, s.Call("notification.show", map[string]any{"title": "Bottom", "position": "bottom-right"}), "notification_show").Shown
	})
	screen = c.WaitText(t, "Bottom")
	lines := Lines(screen)
	if i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "Bottom") }); i != TuiRows-3 {
		t.Errorf("bottom-right toast on row %d, want %d", i, TuiRows-3)
	}
	if log := readLog(sounds); log != "" {
		t.Errorf("HERDR_DISABLE_SOUND=1, yet a sound played: %q", log)
	}
}
