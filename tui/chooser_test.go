package tui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// fakeHerdr stands in for the child herdr: it records the command lines
// and answers with answer.
type fakeHerdr struct {
	mu     sync.Mutex
	calls  [][]string
	answer func(args []string) (stdout, stderr string, err error)
}

func (f *fakeHerdr) run(_ context.Context, args []string) (string, string, error) {
	f.mu.Lock()
	f.calls = append(f.calls, slices.Clone(args))
	f.mu.Unlock()
	if f.answer == nil {
		return "", "", nil
	}
	return f.answer(args)
}

func (f *fakeHerdr) last() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		return nil
	}
	return f.calls[len(f.calls)-1]
}

// runPart runs a command as Bubble Tea would, batches included, and feeds
// the parts' messages it returns to the model; the commands the model
// answers with (a toast's expiry) are not run.
func runPart(m *model, cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, runPart(m, c)...)
		}
		return out
	}
	switch msg.(type) {
	case partMsg:
		m.Update(msg)
	}
	return []tea.Msg{msg}
}

const sessionsJSON = `{"sessions":[` +
	`{"name":"default","default":true,"running":false,"socket_path":"/cfg/herdr.sock","session_dir":"/cfg"},` +
	`{"name":"evil\u001b[31m","default":false,"running":false,"socket_path":"/cfg/sessions/evil/herdr.sock","session_dir":"/cfg/sessions/evil"},` +
	`{"name":"work","default":false,"running":true,"socket_path":"/cfg/sessions/work/herdr.sock","session_dir":"/cfg/sessions/work"}]}`

func chooserModel(t *testing.T) (*model, *fakeHerdr) {
	m, _ := testModel(t, &fakeServer{})
	f := &fakeHerdr{answer: func([]string) (string, string, error) { return sessionsJSON, "", nil }}
	m.tmux.herdr, m.tmux.canSwitch, m.socket = f, true, "/cfg/herdr.sock"
	return m, f
}

// TestChooser_ListsAndSwitches: prefix S lists the sessions as `herdr
// session list --json` gives them, this client's marked and the selection
// on it, names sanitised; enter on another ends the client with
// SwitchSession naming it.
func TestChooser_ListsAndSwitches(t *testing.T) {
	m, f := chooserModel(t)
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	_, cmd := m.Update(keyRunes("S"))
	if m.mode != modeChooser {
		t.Fatalf("prefix S: mode %v, want the chooser", m.mode)
	}
	if !strings.Contains(render(m), "listing the sessions") {
		t.Errorf("the chooser before the list came:\n%s", render(m))
	}
	runPart(m, cmd)
	if got := f.last(); !slices.Equal(got, []string{"session", "list", "--json"}) {
		t.Errorf("ran %q, want session list --json", got)
	}
	view := render(m)
	for _, want := range []string{"* default  stopped (attached)", "work  running", "evil"} {
		if !strings.Contains(view, want) {
			t.Errorf("chooser lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "\x1b[31m") || strings.Contains(strings.Join(m.tmux.chooser.View(), ""), "\x1b") {
		t.Errorf("a session name's escape reached the screen: %q", m.tmux.chooser.View())
	}
	if m.tmux.chooser.sel != 0 {
		t.Errorf("selection %d, want this client's session (0)", m.tmux.chooser.sel)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown}) // stops at the last
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.tmux.switchTo != "work" || cmd == nil {
		t.Fatalf("enter on work: switchTo %q, cmd %v", m.tmux.switchTo, cmd)
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("enter on work did not end the client")
	}
	var sw interface{ SessionSwitch() string }
	if err := switchErr(m.tmux.switchTo); !errors.As(err, &sw) || sw.SessionSwitch() != "work" {
		t.Errorf("Run's answer %v, want a switch to work", err)
	}
}

// TestChooser_EscAndCurrent: esc closes; enter on this client's own
// session only closes; a client that cannot switch says how instead.
func TestChooser_EscAndCurrent(t *testing.T) {
	m, _ := chooserModel(t)
	runPart(m, m.tmux.openChooser())
	m.Update(tea.KeyPressMsg{Code: tea.KeyEsc})
	if m.mode != modeTerminal || m.tmux.chooser != nil || m.tmux.switchTo != "" {
		t.Errorf("esc: mode %v chooser %v switchTo %q", m.mode, m.tmux.chooser, m.tmux.switchTo)
	}
	runPart(m, m.tmux.openChooser())
	if _, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); cmd != nil || m.tmux.switchTo != "" || m.mode != modeTerminal {
		t.Errorf("enter on the attached session: switchTo %q mode %v", m.tmux.switchTo, m.mode)
	}
	m.tmux.canSwitch = false
	runPart(m, m.tmux.openChooser())
	m.Update(keyRunes("j"))
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.tmux.switchTo != "" || !strings.Contains(m.toast.text, "herdr session attach") {
		t.Errorf("a client through ssh: switchTo %q, toast %q", m.tmux.switchTo, m.toast.text)
	}
}

// TestChooser_ListFails: the verb's error is what the chooser shows.
func TestChooser_ListFails(t *testing.T) {
	m, f := chooserModel(t)
	f.answer = func([]string) (string, string, error) {
		return "", "herdr: permission denied reading sessions\n", errors.New("exit status 1")
	}
	runPart(m, m.tmux.openChooser())
	if !strings.Contains(render(m), "permission denied reading sessions") {
		t.Errorf("the list's error is not shown:\n%s", render(m))
	}
	m.tmux.herdr = nil
	m.Update(tea.KeyPressMsg{Code: tea.KeyEsc})
	m.tmux.openChooser()
	if m.mode != modeTerminal || !strings.Contains(m.toast.text, "herdr session attach") {
		t.Errorf("no runner: mode %v toast %q", m.mode, m.toast.text)
	}
}

// TestChooser_SelectionStaysInSight: more sessions than rows scroll with
// the selection.
func TestChooser_SelectionStaysInSight(t *testing.T) {
	m, f := chooserModel(t)
	var b strings.Builder
	b.WriteString(`{"sessions":[`)
	for i := range 30 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"name":"s` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `","socket_path":"/x"}`)
	}
	b.WriteString(`]}`)
	f.answer = func([]string) (string, string, error) { return b.String(), "", nil }
	runPart(m, m.tmux.openChooser())
	for range 29 {
		m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	}
	if view := render(m); !strings.Contains(view, "sdb  stopped") || strings.Contains(view, "saa  stopped") {
		t.Errorf("the last session is not in sight (or the first still is):\n%s", view)
	}
}
