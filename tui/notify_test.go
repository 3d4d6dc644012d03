package tui

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
)

// fakeNotifyHost is the client as the notifier sees it: [ui.toast], an
// environment, and what it sent the outer terminal and the tab bar.
type fakeNotifyHost struct {
	cfg    config.Toast
	env    map[string]string
	outer  []byte
	seq    int
	toasts []string
}

func (h *fakeNotifyHost) toastConfig() config.Toast { return h.cfg }
func (h *fakeNotifyHost) getenv(k string) string    { return h.env[k] }
func (h *fakeNotifyHost) context() context.Context  { return context.Background() }
func (h *fakeNotifyHost) toOuter(b []byte)          { h.outer = append(h.outer, b...) }
func (h *fakeNotifyHost) nextToast() int            { h.seq++; return h.seq }
func (h *fakeNotifyHost) toast(text string) tea.Cmd {
	h.toasts = append(h.toasts, text)
	return nil
}

// The notifier on its own: herdr delivery shows a corner toast, drawn in
// its corner, that only its own expiry hides; terminal delivery asks the
// outer terminal; a failing system notifier is reported once; sounds
// follow [ui.sound], the agents' switches and HERDR_DISABLE_SOUND, and a
// relative sound path starts at the config's folder.
func TestNotifier_OnItsOwn(t *testing.T) {
	h := &fakeNotifyHost{cfg: config.Toast{Delivery: config.ToastHerdr, HerdrPosition: "top-left"}, env: map[string]string{}}
	nf := &notifier{tones: &toneFiles{}, host: h}
	if nf.notify(notice{title: "impl finished", body: "proj · 1"}) == nil || nf.corner == nil || nf.corner.text != "impl finished: proj · 1" {
		t.Fatalf("corner %+v", nf.corner)
	}
	c := newCanvas(40, 10)
	nf.drawCorner(c, 40, 10, newTheme(config.Default(), true))
	if row := ansi.Strip(strings.Split(c.String(), "\n")[2]); !strings.HasPrefix(row, "   impl finished") {
		t.Fatalf("top-left corner row %q", row)
	}
	nf.expire(cornerExpired{seq: h.seq + 1})
	if nf.corner == nil {
		t.Fatal("another toast's expiry hid this one")
	}
	nf.expire(cornerExpired{seq: h.seq})
	if nf.corner != nil {
		t.Fatal("its expiry did not hide it")
	}

	nf.notify(notice{title: "x", delivery: config.ToastTerminal})
	if !strings.Contains(string(h.outer), "\x1b]9;x") || nf.corner != nil {
		t.Fatalf("terminal delivery sent %q", h.outer)
	}
	for range 2 {
		nf.systemFailed(systemDone{prog: "notify-send", err: errors.New("not found")})
	}
	if len(h.toasts) != 1 || !strings.Contains(h.toasts[0], "notify-send: not found") {
		t.Fatalf("toasts %q", h.toasts)
	}

	nf.sound = config.Sound{Enabled: true, Path: "ding.mp3", Agents: map[string]string{"open_code": "off"}}
	nf.configDir = "/home/me/.config/herdr"
	if !nf.soundOn("done", "claude") || nf.soundOn("done", "opencode") || nf.soundOn("bell", "") {
		t.Fatal("sound switches")
	}
	if got := nf.soundFile("request"); got != filepath.Join(nf.configDir, "ding.mp3") {
		t.Fatalf("sound file %q", got)
	}
	h.env["HERDR_DISABLE_SOUND"] = "1"
	if nf.playSound("done", "claude") != nil {
		t.Fatal("HERDR_DISABLE_SOUND played a sound")
	}
}
