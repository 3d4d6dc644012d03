package tui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
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

// clipboard is what leaves the client as a copy, as a component: a mouse
// selection or a yank sent to the outer terminal's clipboard (OSC 52) and
// said in a toast, a yank's buffer named, the newest buffer pasted. It
// reaches the client through clipboardHost (a fake in tests).
type clipboard struct{ h clipboardHost }

// clipboardHost is what the clipboard needs of the client.
type clipboardHost interface {
	// toOuter sends bytes to the outer terminal with the next frame.
	toOuter(b []byte)
	toastConfig() config.Toast
	// corner shows a corner toast ([ui.toast] position).
	corner(n notice) tea.Cmd
	toast(text string) tea.Cmd
	focusedPaneID() string
	send(method string, params any)
}

// paste types the newest buffer into the focused pane; a failure (no
// buffer yet, the pane gone) comes back as a toast.
func (cb clipboard) paste() tea.Cmd {
	pane := cb.h.focusedPaneID()
	if pane == "" {
		return cb.h.toast("paste: no pane to paste into")
	}
	cb.h.send("buffer.paste", protocol.BufferPasteParams{PaneID: pane})
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
func (cb clipboard) yanked(text string, kept protocol.BufferInfo, err error) tea.Cmd {
	if text == "" {
		return cb.h.toast("copy mode: nothing selected, nothing copied")
	}
	cb.h.toOuter([]byte(osc52(text)))
	if err != nil {
		return cb.h.toast("copied " + strconv.Itoa(len(text)) + " bytes to the clipboard (OSC 52) only, not kept as a buffer: " + err.Error())
	}
	tc := cb.h.toastConfig()
	if !tc.ClipboardEnabled { // [ui.toast.clipboard]
		return nil
	}
	return cb.h.corner(notice{title: "copied " + strconv.Itoa(len(text)) + " bytes to " + kept.Name, position: tc.ClipboardPosition})
}

// copy sends text to the outer terminal's clipboard (OSC 52).
func (cb clipboard) copy(text string) tea.Cmd {
	cb.h.toOuter([]byte(osc52(text)))
	tc := cb.h.toastConfig()
	if !tc.ClipboardEnabled { // [ui.toast.clipboard]
		return nil
	}
	return cb.h.corner(notice{title: "copied " + strconv.Itoa(len([]rune(text))) + " characters", position: tc.ClipboardPosition})
}
