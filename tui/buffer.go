package tui

import (
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/protocol"
)

// Paste buffers (issue 46): a yank in copy mode keeps its text on the
// server (buffer.set) as well as sending it to the outer terminal's
// clipboard (OSC 52), and a toast names the buffer; paste_buffer types the
// newest buffer into the focused pane (buffer.paste: bracketed when the
// pane's program asked for it). A key preset binds actPasteBuffer (or sends pasteBufferMsg).

// pasteBufferMsg asks the client to paste the newest buffer into the
// focused pane, as the paste_buffer action does.
type pasteBufferMsg struct{}

// pasteBuffer types the newest buffer into the focused pane; a failure
// (no buffer yet, the pane gone) comes back as a toast.
func (m *model) pasteBuffer() tea.Cmd {
	pane := m.focusedPaneID()
	if pane == "" {
		return m.toast.show("paste: no pane to paste into")
	}
	m.call("buffer.paste", protocol.BufferPasteParams{PaneID: pane})
	return nil
}

// keepYank keeps a yank's text as the newest buffer; it runs off the
// model, with copy mode's call. Text a buffer cannot hold is not sent.
func keepYank(call rpcFunc, text string) (protocol.BufferInfo, error) {
	if len(text) > protocol.BufferMaxBytes {
		return protocol.BufferInfo{}, protocol.Errorf(protocol.CodeInvalidParams, "%d bytes, more than a buffer holds (%d)", len(text), protocol.BufferMaxBytes)
	}
	var res protocol.BufferInfoResult
	err := call("buffer.set", protocol.BufferSetParams{Text: text}, &res)
	return res.Buffer, err
}

// yanked sends a yank to the clipboard and says where it went: the
// buffer it is kept in, or why it is on the clipboard only (that toast
// shows even with [ui.toast.clipboard] off, since it reports a failure).
func (m *model) yanked(text string, kept protocol.BufferInfo, err error) tea.Cmd {
	if text == "" {
		return m.toast.show("copy mode: nothing selected, nothing copied")
	}
	m.toHost = append(m.toHost, osc52(text)...)
	if err != nil {
		return m.toast.show("copied " + strconv.Itoa(len(text)) + " bytes to the clipboard (OSC 52) only, not kept as a buffer: " + err.Error())
	}
	if !m.ui.Toast.ClipboardEnabled { // [ui.toast.clipboard]
		return nil
	}
	return m.notes.showCorner(notice{title: "copied " + strconv.Itoa(len(text)) + " bytes to " + kept.Name, position: m.ui.Toast.ClipboardPosition})
}
