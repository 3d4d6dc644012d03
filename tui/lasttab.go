package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// Closing a workspace's last tab closes the workspace with it, so the
// client asks first, whatever runs there (as Herdr 0.9.2's client does);
// other tabs are asked about only when a program would be ended.
// confirm_close = false turns both questions off.

// askTab closes tab id, asking first when it is its workspace's last.
func (cc *closeConfirm) askTab(id string) tea.Cmd {
	req := closeReq{what: "tab", method: "tab.close", params: protocol.TabTarget{TabID: id}}
	if ws, last := cc.host.lastTabOf(id); last && cc.host.confirmClose() {
		req.question = " close the last tab of " + protocol.Printable(ws) + " and the workspace with it"
	}
	return cc.ask(req, cc.host.panesOf(id, ""))
}

// lastTabQuestion is the confirm line for a question asked whatever runs:
// the programs that would end, if any, follow it.
func lastTabQuestion(question string, busy []string) string {
	if len(busy) == 0 {
		return question + "? y/n "
	}
	if len(busy) > 3 {
		busy = append(busy[:3:3], "…")
	}
	out := question + ", ending "
	for i, b := range busy {
		if i > 0 {
			out += ", "
		}
		out += b
	}
	return out + "? y/n "
}
