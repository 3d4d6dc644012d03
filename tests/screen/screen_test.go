package screen

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestE2E_Screen_SequencesReadBack prints escape sequences in a real pane
// and reads them back as text and as ANSI, and checks the title and modes
// they set.
func TestE2E_Screen_SequencesReadBack(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "e2e")
	OK[protocol.WorkspaceCreated](t, s.Call("workspace.create", map[string]any{"cwd": h.Dir}), "workspace_created")
	p := "w1:p1"
	// Red bold "hot", curly-underlined "wavy", a wide CJK pair, a title.
	s.Run(t, p, `printf '\033]2;⠋ building\007\033[1;31mhot\033[0m \033[4:3mwavy\033[0m 漢字 end\n'`)
	WaitFor(t, "the printed line", func() bool { return HasLine(s.Read(t, p, "recent", 0).Text, "hot wavy 漢字 end") })

	ansi := OK[protocol.PaneRead](t, s.Call("pane.read", map[string]any{"pane_id": p, "source": "recent", "format": "ansi"}), "pane_read").Read
	var line string
	for _, l := range strings.Split(ansi.Text, "\n") {
		if strings.Contains(l, "漢字 end") && !strings.Contains(l, "printf") {
			line = l
		}
	}
	if !strings.Contains(line, "31") || !strings.Contains(line, "hot") || !strings.Contains(line, "4:3") {
		t.Fatalf("ansi read lost the styles: %q", line)
	}
	if !strings.Contains(line, "\x1b[") {
		t.Fatalf("ansi read has no SGR sequences: %q", line)
	}
	raw := OK[protocol.PaneRead](t, s.Call("pane.read", map[string]any{"pane_id": p, "source": "recent", "strip_ansi": false}), "pane_read").Read
	if !strings.Contains(raw.Text, "\x1b[") {
		t.Fatalf("strip_ansi:false read has no escape sequences")
	}
	if plain := s.Read(t, p, "recent", 0).Text; strings.Contains(plain, "\x1b") {
		t.Fatalf("text read kept escape sequences: %q", plain)
	}

	// The title, with its spinner stripped in terminal_title_stripped.
	WaitFor(t, "the terminal title", func() bool {
		info := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": p}), "pane_info").Pane
		return info.TerminalTitle != nil && *info.TerminalTitle == "⠋ building" &&
			info.TerminalTitleStripped != nil && *info.TerminalTitleStripped == "building"
	})

	// Bracketed paste: once the program asks for it, send_input text is
	// wrapped; the shell's `cat -v` shows the markers.
	s.Run(t, p, `printf '\033[?2004h'; echo paste-$((1+1)); cat -v`)
	// The marker comes after the mode switch, so the pane has seen it.
	WaitFor(t, "bracketed paste on", func() bool { return HasLine(s.Read(t, p, "recent", 0).Text, "paste-2") })
	OK[protocol.OK](t, s.Call("pane.send_input", map[string]any{"pane_id": p, "text": "pasted", "keys": []string{"Enter"}}), "ok")
	WaitFor(t, "the paste markers", func() bool {
		return strings.Contains(s.Read(t, p, "recent", 0).Text, "^[[200~pasted^[[201~")
	})
	OK[protocol.OK](t, s.Call("pane.send_keys", map[string]any{"pane_id": p, "keys": []string{"ctrl+c"}}), "ok")
}
