package tui

import (
	"net/url"
	"os/exec"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// Ctrl-click in a pane asks the server for the link under the cell
// (pane.link.activate): a URL shown as text or an OSC 8 hyperlink. A
// plugin's [[link_handlers]] entry that matches takes it there (handled);
// otherwise the client opens the URL here, with the system's opener, as
// long as it is a web address (http or https): a program in a pane names
// the link, and must not make the person's desktop open anything else.

// linkMsg reports what a ctrl-click did, when it failed.
type linkMsg struct{ err error }

// linkOpens reports whether the client opens u itself.
func linkOpens(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != ""
}

// activateLink activates the link at cell (col, row) of the view of pane
// paneID (its screen s scrolled or not; nil: not scrolled) through call.
func activateLink(call rpcFunc, s *paneScreen, paneID string, col, row int) tea.Cmd {
	var offset uint64
	if s != nil {
		offset = uint64(max(s.offset, 0))
	}
	prm := protocol.PaneLinkParams{PaneID: paneID, ViewportRow: uint16(max(row, 0)), Col: uint16(max(col, 0)), OffsetFromBottom: &offset}
	return func() tea.Msg {
		var res protocol.PaneLinkActivated
		if err := call("pane.link.activate", prm, &res); err != nil {
			return linkMsg{err: err}
		}
		if res.Handled || res.URL == nil || !linkOpens(*res.URL) {
			return linkMsg{}
		}
		cmd := exec.Command(urlOpener[0], append(urlOpener[1:], *res.URL)...)
		if err := cmd.Start(); err != nil {
			return linkMsg{err: err}
		}
		go cmd.Wait() //nolint:errcheck // reaped, its outcome is the browser's
		return linkMsg{}
	}
}
