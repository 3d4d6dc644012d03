package harness

import (
	"strings"
)

// PanelRows is the sidebar from its agents header down, as text: the
// screenshot the panel tests compare.
func PanelRows(screen string) []string {
	var out []string
	in := false
	for _, l := range Lines(screen) {
		side, _, _ := strings.Cut(l, "│")
		side = strings.TrimRight(side, " ")
		if strings.HasPrefix(side, " agents") {
			in = true
		}
		if in && side != "" {
			out = append(out, side)
		}
	}
	return out
}

// AgentEntry is an agent's entry in the panel under Herdr's default rows:
// the row above the agent's name (icon, workspace) joined with it.
func AgentEntry(screen, name string) string {
	rows := PanelRows(screen)
	for i, r := range rows {
		if i > 0 && strings.Contains(r, name) {
			return rows[i-1] + "\n" + r
		}
	}
	return ""
}
