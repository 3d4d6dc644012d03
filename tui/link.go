package tui

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// Ctrl-click on a URL in a pane: a plugin's [[link_handlers]] entry whose
// pattern matches the URL runs its action (plugin.action.invoke, with the
// URL and the handler in the context, as Herdr passes them); otherwise the
// URL opens in the browser. Only http and https URLs shown as text count.

// linkMsg reports what a ctrl-click did, when it failed.
type linkMsg struct{ err error }

// rowCell is one cell of a screen row: its text and its first column.
type rowCell struct {
	s       string
	col, w  int
	isSpace bool
}

// rowCells splits row y of a screen into cells, blanks between runs
// included, so a column maps to the character drawn there.
func (s *paneScreen) rowCells(y int) []rowCell {
	if y < 0 || y >= len(s.lines) {
		return nil
	}
	var out []rowCell
	col := 0
	for _, r := range s.lines[y] {
		for ; col < r.X; col++ {
			out = append(out, rowCell{s: " ", col: col, w: 1, isSpace: true})
		}
		for rest := r.Text; rest != ""; {
			var cl string
			var w int
			cl, rest, w = emulator.NextCell(rest)
			out = append(out, rowCell{s: cl, col: col, w: w, isSpace: strings.TrimSpace(cl) == ""})
			col += w
		}
	}
	return out
}

// urlAt is the http(s) URL drawn over column x of row y, or "": the run of
// non-blank cells from "http://" or "https://", less trailing punctuation
// and closing brackets that open nowhere inside it (Herdr's rule).
func (s *paneScreen) urlAt(x, y int) string {
	cells := s.rowCells(y)
	for start := 0; start < len(cells); {
		rest := joinCells(cells[start:min(start+8, len(cells))])
		if !strings.HasPrefix(rest, "http://") && !strings.HasPrefix(rest, "https://") {
			start++
			continue
		}
		end := start
		for end+1 < len(cells) && !cells[end+1].isSpace {
			end++
		}
		next := end + 1
		for end >= start && trimsURL(cells[start:end+1]) {
			end--
		}
		if end >= start && x >= cells[start].col && x < cells[end].col+cells[end].w {
			return joinCells(cells[start : end+1])
		}
		start = next
	}
	return ""
}

func joinCells(cells []rowCell) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.s)
	}
	return b.String()
}

// trimsURL reports whether the last cell of a URL candidate is not part of it.
func trimsURL(cells []rowCell) bool {
	last := cells[len(cells)-1].s
	switch last {
	case `"`, "'", "`", ".", ",", ";", ":", "!", "?":
		return true
	case ")", "]", "}":
		open := map[string]string{")": "(", "]": "[", "}": "{"}[last]
		balance := 0
		for _, c := range cells[:len(cells)-1] {
			switch c.s {
			case open:
				balance++
			case last:
				balance--
			}
		}
		return balance <= 0
	}
	return false
}

// linkHandler finds the first link handler whose pattern matches url:
// plugins in id order, handlers in manifest order, enabled plugins only,
// and only handlers that, with their action, run on this platform.
func linkHandler(plugins []protocol.InstalledPluginInfo, url string) (pluginID, handlerID, actionID string, ok bool) {
	slices.SortFunc(plugins, func(a, b protocol.InstalledPluginInfo) int { return strings.Compare(a.PluginID, b.PluginID) })
	runs := func(own, plugin []string) bool {
		if own == nil {
			own = plugin
		}
		return own == nil || slices.Contains(own, platform)
	}
	for _, pl := range plugins {
		if !pl.Enabled {
			continue
		}
		for _, h := range pl.LinkHandlers {
			i := slices.IndexFunc(pl.Actions, func(a protocol.PluginManifestAction) bool { return a.ID == h.Action })
			if !runs(h.Platforms, pl.Platforms) || i < 0 || !runs(pl.Actions[i].Platforms, pl.Platforms) {
				continue
			}
			if re, err := regexp.Compile(h.Pattern); err == nil && re.MatchString(url) {
				return pl.PluginID, h.ID, pl.PluginID + "." + h.Action, true
			}
		}
	}
	return "", "", "", false
}

// clickLink runs the link handler that matches url, clicked in pane, or
// opens url in the browser.
func (m *model) clickLink(paneID, url string) tea.Cmd {
	conn := m.link.req
	return func() tea.Msg {
		var list protocol.PluginList
		if err := conn.call("plugin.list", nil, &list); err == nil {
			if pluginID, handlerID, actionID, ok := linkHandler(list.Plugins, url); ok {
				c := protocol.PluginInvocationContext{FocusedPaneID: &paneID, ClickedURL: &url, LinkHandlerID: &handlerID,
					InvocationSource: protocol.Ptr("link_click"), CorrelationID: protocol.Ptr("link_click")}
				err := conn.call("plugin.action.invoke", protocol.PluginActionInvokeParams{ActionID: actionID, PluginID: &pluginID, Context: &c}, nil)
				return linkMsg{err: err}
			}
		}
		cmd := exec.Command(urlOpener[0], append(urlOpener[1:], url)...)
		if err := cmd.Start(); err != nil {
			return linkMsg{err: err}
		}
		go cmd.Wait() //nolint:errcheck // reaped, its outcome is the browser's
		return linkMsg{}
	}
}
