package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func promptModel(t *testing.T, answer func(args []string) (string, string, error)) (*model, *fakeHerdr) {
	m, _ := testModel(t, &fakeServer{})
	f := &fakeHerdr{answer: answer}
	m.tmux.herdr = f
	return m, f
}

// typeLine types s into the model key by key.
func typeLine(m *model, s string) {
	for _, r := range s {
		if r == ' ' {
			m.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
			continue
		}
		m.Update(keyRunes(string(r)))
	}
}

// TestPrompt_RunsVerb: prefix : opens the prompt; enter runs the line as
// herdr's words (quotes kept together, no shell) and its one line of
// output is the toast.
func TestPrompt_RunsVerb(t *testing.T) {
	m, f := promptModel(t, func([]string) (string, string, error) {
		return `{"id":"1","result":{"type":"pane_info"}}` + "\n", "", nil
	})
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes(":"))
	if m.mode != modePrompt {
		t.Fatalf("prefix : mode %v, want the prompt", m.mode)
	}
	typeLine(m, `pane run "echo hi; rm x" --pane w1:p1`)
	if !strings.Contains(render(m), `:pane run "echo hi; rm x" --pane w1:p1▏`) {
		t.Errorf("the prompt line is not drawn:\n%s", render(m))
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.mode != modeTerminal {
		t.Errorf("after enter: mode %v, want terminal", m.mode)
	}
	runPart(m, cmd)
	if got := f.last(); !slices.Equal(got, []string{"pane", "run", "echo hi; rm x", "--pane", "w1:p1"}) {
		t.Errorf("ran %q", got)
	}
	if !strings.Contains(m.toast.text, `"pane_info"`) {
		t.Errorf("toast %q, want the verb's output", m.toast.text)
	}
}

// TestPrompt_OutputAndErrors: output of several lines opens a box that a
// key closes; a failing verb's stderr is the toast; lines that cannot
// run are refused before anything runs.
func TestPrompt_OutputAndErrors(t *testing.T) {
	m, f := promptModel(t, func(args []string) (string, string, error) {
		if args[0] == "bad" {
			return "", "unknown command \"bad\" for \"herdr\"\n", errors.New("exit status 2")
		}
		return "ID  LABEL\nw1  proj\nw2  other\n", "", nil
	})
	m.tmux.openPrompt()
	typeLine(m, "workspace list")
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	runPart(m, cmd)
	view := render(m)
	if m.mode != modePrompt || !strings.Contains(view, "w2  other") || !strings.Contains(view, "herdr workspace list") {
		t.Fatalf("mode %v; the output box is not drawn:\n%s", m.mode, view)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown}) // scrolls
	if view := render(m); m.mode != modePrompt || strings.Contains(view, "ID  LABEL") || !strings.Contains(view, "w1  proj") {
		t.Errorf("down did not scroll the output by a line:\n%s", view)
	}
	m.Update(keyRunes("x"))
	if m.mode != modeTerminal || strings.Contains(render(m), "w2  other") {
		t.Errorf("a key did not close the output: mode %v", m.mode)
	}
	m.tmux.openPrompt()
	typeLine(m, "bad verb")
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	runPart(m, cmd)
	if !strings.Contains(m.toast.text, `herdr bad: unknown command "bad"`) {
		t.Errorf("toast %q, want the verb's error", m.toast.text)
	}
	n := len(f.calls)
	for line, want := range map[string]string{`pane run "oops`: "unfinished quote", "mcp": "needs a terminal", "herdr session attach x": "needs a terminal", "--json": "give a herdr command"} {
		m.tmux.openPrompt()
		typeLine(m, line)
		m.Update(tea.KeyPressMsg{Code: tea.KeyEnter}) // its command is the toast's expiry
		if !strings.Contains(m.toast.text, want) {
			t.Errorf("%q: toast %q, want %q", line, m.toast.text, want)
		}
	}
	if len(f.calls) != n {
		t.Errorf("refused lines ran: %q", f.calls[n:])
	}
	m.tmux.openPrompt()
	typeLine(m, "pane list")
	m.Update(tea.KeyPressMsg{Code: tea.KeyEsc})
	if m.mode != modeTerminal || len(f.calls) != n {
		t.Errorf("esc: mode %v, %d runs", m.mode, len(f.calls)-n)
	}
}

// TestPrompt_History: up and down walk the lines run, newest first, and
// come back to what was being typed.
func TestPrompt_History(t *testing.T) {
	m, _ := promptModel(t, nil)
	for _, line := range []string{"tab create", "pane split", "tab create"} {
		m.tmux.openPrompt()
		typeLine(m, line)
		runPart(m, func() tea.Cmd { _, c := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); return c }())
	}
	m.tmux.openPrompt()
	typeLine(m, "wor")
	value := func() string { return m.tmux.prompt.in.Value() }
	for i, step := range []struct {
		key  rune
		want string
	}{{tea.KeyUp, "tab create"}, {tea.KeyUp, "pane split"}, {tea.KeyUp, "pane split"}, {tea.KeyDown, "tab create"}, {tea.KeyDown, "wor"}} {
		m.Update(tea.KeyPressMsg{Code: step.key})
		if value() != step.want {
			t.Errorf("step %d: line %q, want %q", i, value(), step.want)
		}
	}
}

// TestPrompt_Completion: tab asks cobra's __complete for the word before
// the cursor; one candidate completes it with a space, several complete
// their common prefix and are listed.
func TestPrompt_Completion(t *testing.T) {
	m, f := promptModel(t, func(args []string) (string, string, error) {
		switch {
		case slices.Equal(args, []string{"__complete", "pan"}):
			return "pane\tManage panes\n:4\n", "Completion ended with directive: ShellCompDirectiveNoFileComp\n", nil
		case slices.Equal(args, []string{"__complete", "pane", ""}):
			return "split\tSplit a pane\nsend-text\nsend-keys\n:4\n", "", nil
		case slices.Equal(args, []string{"__complete", "pane", "split", "--d"}):
			return "--direction\tright or down\n:4\n", "", nil
		}
		return ":0\n", "", nil
	})
	m.tmux.openPrompt()
	tab := func() { _, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyTab}); runPart(m, cmd) }
	typeLine(m, "pan")
	tab()
	if got := m.tmux.prompt.in.Value(); got != "pane " {
		t.Fatalf("pan⇥ = %q, want %q (asked %q)", got, "pane ", f.last())
	}
	tab()
	if got := m.tmux.prompt.in.Value(); got != "pane s" || !strings.Contains(render(m), "split  send-text  send-keys") {
		t.Errorf("pane ⇥ = %q, want the common prefix and the three listed:\n%s", got, render(m))
	}
	typeLine(m, "plit --d")
	tab()
	if got := m.tmux.prompt.in.Value(); got != "pane split --direction " {
		t.Errorf("flag ⇥ = %q (asked %q)", got, f.last())
	}
	typeLine(m, "zz")
	tab()
	if !strings.Contains(render(m), "(no completions)") {
		t.Errorf("no candidates is not said:\n%s", render(m))
	}
}

// TestSplitWords: quotes and escapes as a shell's, nothing else.
func TestSplitWords(t *testing.T) {
	for in, want := range map[string][]string{
		`a  b`:                  {"a", "b"},
		`pane run 'a "b" $X'`:   {"pane", "run", `a "b" $X`},
		`x "a \"q\" \\ b" c\ d`: {"x", `a "q" \ b`, "c d"},
		`""`:                    {""},
		`a;b|c`:                 {"a;b|c"},
	} {
		got, err := splitWords(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := splitWords(`a\`); err == nil {
		t.Error("a trailing backslash split")
	}
}
