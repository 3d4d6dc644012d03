package tui

import (
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/protocol"
)

// edit_scrollback (prefix e): the focused pane's history and screen, read
// with pane.read, written to a temporary file and opened in $VISUAL or
// $EDITOR in the person's terminal; the client takes the terminal back
// when the editor ends.

// editLoadedMsg carries the text to edit.
type editLoadedMsg struct {
	text string
	err  error
}

// editDoneMsg says the editor ended.
type editDoneMsg struct {
	file string
	err  error
}

func (m *model) editScrollback() tea.Cmd {
	id := m.focusedPaneID()
	if id == "" || m.outer == nil {
		return nil
	}
	conn, n := m.link.req, uint32(copyLines)
	return func() tea.Msg {
		var res protocol.PaneRead
		err := conn.call("pane.read", protocol.PaneReadParams{PaneID: id, Source: "recent", Lines: &n}, &res)
		return editLoadedMsg{text: res.Read.Text, err: err}
	}
}

// editor is the command line of the person's editor.
func editor() []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(os.Getenv(v)); len(f) > 0 {
			return f
		}
	}
	if runtime.GOOS == "windows" {
		return []string{"notepad"}
	}
	return []string{"vi"}
}

func (m *model) editLoaded(msg editLoadedMsg) tea.Cmd {
	if msg.err != nil {
		return m.showToast("edit scrollback: " + msg.err.Error())
	}
	f, err := os.CreateTemp("", "herdr-scrollback-*.txt")
	if err != nil {
		return m.showToast("edit scrollback: " + err.Error())
	}
	_, err = io.WriteString(f, msg.text+"\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return m.showToast("edit scrollback: " + err.Error())
	}
	argv := append(editor(), f.Name())
	c := &editCmd{Cmd: exec.Command(argv[0], argv[1:]...), outer: m.outer}
	name := f.Name()
	return tea.Exec(c, func(err error) tea.Msg { return editDoneMsg{file: name, err: err} })
}

func (m *model) editDone(msg editDoneMsg) tea.Cmd {
	os.Remove(msg.file)
	m.sw.prev = nil // the editor drew over everything
	if msg.err != nil {
		return m.showToast("edit scrollback: " + msg.err.Error())
	}
	return nil
}

// editCmd runs the editor with the terminal handed over to it.
type editCmd struct {
	*exec.Cmd
	outer *outerTerm
}

func (c *editCmd) Run() error {
	c.outer.suspend()
	defer c.outer.resume()
	return c.Cmd.Run()
}

func (c *editCmd) SetStdin(r io.Reader) {
	if c.Stdin == nil {
		c.Stdin = r
	}
}

func (c *editCmd) SetStdout(w io.Writer) {
	if c.Stdout == nil {
		c.Stdout = w
	}
}

func (c *editCmd) SetStderr(w io.Writer) {
	if c.Stderr == nil {
		c.Stderr = w
	}
}
