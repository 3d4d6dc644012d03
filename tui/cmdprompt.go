package tui

import (
	"errors"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// The command prompt (command_prompt: prefix :) runs a herdr command line
// against this session — `pane split --direction right`, `workspace
// create` — as a child herdr (herdrcmd.go says why a child), and shows
// what it printed: one line in the toast, more in a box that ↑↓ scroll
// and any other key closes. Tab completes verbs and flags from the CLI's own command tree
// (cobra's __complete, which also knows the live pane and tab ids); up and
// down walk the lines run before.

// maxHistory bounds the prompt's history.
const maxHistory = 100

// cmdPrompt is the prompt's state: a bubbles text input, the history, the
// last completions and the output shown. It lives as long as the client,
// so the history outlives one opening.
type cmdPrompt struct {
	in      textinput.Model
	open    bool
	history []string
	hpos    int    // index into history while walking it; len(history) at the draft
	draft   string // what was typed before walking the history
	hints   []string
	output  []string // a finished command's output, shown until a key
	top     int      // the first line of output shown (↑↓ scroll it)
	title   string
}

// newCmdPrompt is a closed prompt.
func newCmdPrompt() *cmdPrompt {
	in := textinput.New()
	in.Prompt = ""
	in.CharLimit = 4096
	in.KeyMap.Paste = key.NewBinding(key.WithDisabled()) // a paste arrives as keys; no clipboard tool is run
	in.KeyMap.AcceptSuggestion = key.NewBinding(key.WithDisabled())
	in.KeyMap.NextSuggestion = key.NewBinding(key.WithDisabled())
	in.KeyMap.PrevSuggestion = key.NewBinding(key.WithDisabled())
	return &cmdPrompt{in: in}
}

// promptOutcome is what a key did to the prompt.
type promptOutcome int

const (
	promptStay     promptOutcome = iota
	promptClose                  // esc, or any key on the output
	promptRun                    // enter: run args
	promptComplete               // tab: complete args
)

// Open empties the line and takes keys.
func (p *cmdPrompt) Open() {
	p.open, p.output, p.hints = true, nil, nil
	p.in.Reset()
	p.in.Focus()
	p.hpos = len(p.history)
}

// Update takes a key. On promptRun and promptComplete, args is the line
// split into words (for promptComplete, with the word being completed
// last, "" after a space); err is set when the line does not split.
func (p *cmdPrompt) Update(k tea.KeyPressMsg) (out promptOutcome, args []string, err error) {
	if p.output != nil {
		switch k.String() {
		case "up", "k":
			p.top = max(p.top-1, 0)
		case "down", "j":
			p.top = min(p.top+1, max(len(p.output)-1, 0))
		case "pgup":
			p.top = max(p.top-10, 0)
		case "pgdown", "space":
			p.top = min(p.top+10, max(len(p.output)-1, 0))
		default:
			p.output, p.open = nil, false
			return promptClose, nil, nil
		}
		return promptStay, nil, nil
	}
	switch k.String() {
	case "esc", "ctrl+c":
		p.open = false
		return promptClose, nil, nil
	case "enter":
		line := strings.TrimSpace(p.in.Value())
		p.open = false
		if line == "" {
			return promptClose, nil, nil
		}
		p.remember(line)
		args, err = splitWords(line)
		if err == nil {
			args, err = verbArgs(args)
		}
		return promptRun, args, err
	case "up":
		p.walk(-1)
		return promptStay, nil, nil
	case "down":
		p.walk(1)
		return promptStay, nil, nil
	case "tab":
		line := p.in.Value()[:p.in.Position()]
		words, err := splitWords(line)
		if err != nil {
			return promptStay, nil, err
		}
		if line == "" || strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		if len(words) > 0 && words[0] == "herdr" {
			words = words[1:]
		}
		return promptComplete, words, nil
	}
	p.hints = nil
	p.in, _ = p.in.Update(k) // its commands are the cursor's blink, which is not drawn
	return promptStay, nil, nil
}

// remember adds a line to the history, once, newest last.
func (p *cmdPrompt) remember(line string) {
	p.history = slices.DeleteFunc(p.history, func(h string) bool { return h == line })
	p.history = append(p.history, line)
	if len(p.history) > maxHistory {
		p.history = p.history[len(p.history)-maxHistory:]
	}
	p.hpos = len(p.history)
}

// walk moves through the history; past the newest is the draft again.
func (p *cmdPrompt) walk(d int) {
	n := p.hpos + d
	if n < 0 || n > len(p.history) {
		return
	}
	if p.hpos == len(p.history) {
		p.draft = p.in.Value()
	}
	p.hpos = n
	if n == len(p.history) {
		p.in.SetValue(p.draft)
	} else {
		p.in.SetValue(p.history[n])
	}
	p.in.CursorEnd()
}

// Completed applies cobra's completions of the word before the cursor:
// one completes it (and a space follows), several complete their common
// prefix and are listed under the line.
func (p *cmdPrompt) Completed(cands []string) {
	p.hints = nil
	if len(cands) == 0 {
		p.hints = []string{"(no completions)"}
		return
	}
	val, pos := p.in.Value(), p.in.Position()
	head := val[:pos]
	start := strings.LastIndexByte(head, ' ') + 1
	word := head[start:]
	fill := commonPrefix(cands)
	if len(cands) == 1 {
		fill += " "
	} else {
		p.hints = cands
	}
	if !strings.HasPrefix(fill, word) {
		return // the line changed while the child ran
	}
	p.in.SetValue(head[:start] + fill + val[pos:])
	p.in.SetCursor(start + len(fill))
}

// Finished shows a command's output; it returns the one line for the
// toast instead when the output is a single line (or nothing).
func (p *cmdPrompt) Finished(args []string, d herdrDone) (toast string) {
	text := strings.TrimRight(d.stdout, "\n")
	if d.err != nil {
		text = strings.TrimRight(d.stderr, "\n")
		if text == "" {
			text = d.err.Error()
		}
		text = "herdr " + args[0] + ": " + text
	}
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		if lines[0] == "" {
			return "herdr " + strings.Join(args, " ") + ": done"
		}
		return lines[0]
	}
	p.output, p.top, p.title, p.open = lines, 0, " herdr "+strings.Join(args, " ")+" ", true
	return ""
}

// View is the prompt's lines: the command line with its cursor, then the
// completions offered; or the output of the last command.
func (p *cmdPrompt) View() []string {
	if p.output != nil {
		return p.output[min(p.top, len(p.output)):]
	}
	v, pos := []rune(p.in.Value()), p.in.Position()
	pos = min(pos, len(v))
	line := ":" + string(v[:pos]) + "▏" + string(v[pos:])
	if len(p.hints) == 0 {
		return []string{line}
	}
	return []string{line, strings.Join(p.hints, "  ")}
}

// commonPrefix is the longest prefix every candidate shares.
func commonPrefix(c []string) string {
	pre := c[0]
	for _, s := range c[1:] {
		for !strings.HasPrefix(s, pre) {
			pre = pre[:len(pre)-1]
		}
	}
	return pre
}

// splitWords splits a command line into words as a shell would for plain
// words and quotes ('…' literal, "…" with \" and \\, \ outside quotes
// escapes one character) — and nothing else: no variables, globs or
// pipes, since no shell runs it.
func splitWords(line string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // inside a word
		quote rune
		esc   bool
	)
	for _, r := range line {
		switch {
		case esc:
			cur.WriteRune(r)
			esc = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				esc = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\':
			esc, in = true, true
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 || esc {
		return nil, errors.New("unfinished quote or escape at the end of the line")
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

// verbArgs checks a split line: "herdr" in front is dropped; a line
// without a verb, or one that would take this terminal or serve on
// stdin, is refused.
func verbArgs(args []string) ([]string, error) {
	if len(args) > 0 && args[0] == "herdr" {
		args = args[1:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return nil, errors.New("give a herdr command, e.g. pane split --direction right (Tab completes)")
	}
	switch {
	case args[0] == "mcp", args[0] == "session" && len(args) > 1 && args[1] == "attach":
		return nil, errors.New("herdr " + strings.Join(args[:min(2, len(args))], " ") + " needs a terminal of its own; the session chooser is prefix S (tmux: s)")
	}
	return args, nil
}

// parseCompletions reads cobra's __complete output: one candidate a line
// (a tab starts its description), then ":directive".
func parseCompletions(out string) []string {
	var c []string
	for _, l := range strings.Split(out, "\n") {
		if l == "" || strings.HasPrefix(l, ":") || strings.HasPrefix(l, "_activeHelp_") {
			continue
		}
		l, _, _ = strings.Cut(l, "\t")
		c = append(c, protocol.Printable(l))
	}
	return c
}

// promptRan carries a command's output to the prompt.
type promptRan struct {
	args []string
	herdrDone
}

func (msg promptRan) apply(t *tmuxParts) tea.Cmd {
	if *t.mode != modeTerminal && *t.mode != modePrompt {
		return t.h.toast(firstLine(msg.stdout+msg.stderr, "herdr "+strings.Join(msg.args, " ")+": done"))
	}
	if toast := t.prompt.Finished(msg.args, msg.herdrDone); toast != "" {
		return t.h.toast(toast)
	}
	t.h.setToastText("") // the output is in the box
	*t.mode = modePrompt
	return nil
}

// promptCompleted carries cobra's completions to the prompt.
type promptCompleted struct{ herdrDone }

func (msg promptCompleted) apply(t *tmuxParts) tea.Cmd {
	if *t.mode != modePrompt || t.prompt == nil || !t.prompt.open || t.prompt.output != nil {
		return nil
	}
	if msg.err != nil {
		t.prompt.hints = []string{"(completion failed: " + firstLine(msg.stderr, msg.err.Error()) + ")"}
		return nil
	}
	t.prompt.Completed(parseCompletions(msg.stdout))
	return nil
}

// openPrompt opens the command prompt.
func (t *tmuxParts) openPrompt() tea.Cmd {
	if t.herdr == nil {
		return t.h.toast("no command prompt here: this client cannot run herdr; run herdr verbs in a pane")
	}
	if t.prompt == nil {
		t.prompt = newCmdPrompt()
	}
	t.prompt.Open()
	*t.mode = modePrompt
	return nil
}

// promptKey routes a key to the prompt and acts on its outcome.
func (t *tmuxParts) promptKey(k tea.KeyPressMsg) tea.Cmd {
	out, args, err := t.prompt.Update(k)
	if !t.prompt.open {
		*t.mode = modeTerminal
	}
	if err != nil {
		return t.h.toast(err.Error())
	}
	switch out {
	case promptRun:
		// Said until the answer's toast replaces it (no expiry of its own).
		t.h.setToastText(protocol.Printable("herdr " + strings.Join(args, " ") + " …"))
		return runHerdr(t.herdr, args, func(d herdrDone) tea.Msg { return promptRan{args, d} })
	case promptComplete:
		return runHerdr(t.herdr, append([]string{"__complete"}, args...), func(d herdrDone) tea.Msg { return promptCompleted{d} })
	}
	return nil
}

// drawPrompt draws the prompt at the foot of the screen, or a command's
// output in the middle.
func (t *tmuxParts) drawPrompt(c *canvas) {
	lines := t.prompt.View()
	if t.prompt.output != nil {
		w := textWidth(protocol.Printable(t.prompt.title)) + 4
		for _, l := range lines {
			w = max(w, textWidth(protocol.Printable(l))+4)
		}
		w = min(w, t.h.width())
		h := min(len(lines)+2, t.h.height())
		x, y := max((t.h.width()-w)/2, 0), max((t.h.height()-h)/2, 0)
		for i := range lines {
			lines[i] = protocol.Printable(lines[i])
		}
		t.h.th().listBox(c, x, y, w, h, t.prompt.title, lines, -1, h-2)
		return
	}
	for i := range lines {
		lines[i] = protocol.Printable(lines[i])
	}
	h := min(len(lines)+2, t.h.height())
	t.h.th().listBox(c, 0, max(t.h.height()-h, 0), t.h.width(), h, " herdr command (tab completes · ↑↓ history · esc) ", lines, -1, h-2)
}
