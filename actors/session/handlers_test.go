package session

import (
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// The gateway answers these itself.
var gatewayMethods = map[string]bool{"ping": true, "server.stop": true}

// TestHandlers_CoverMethodTable checks that every method the protocol table
// accepts has exactly one owner, so no decoded call is left unanswered.
func TestHandlers_CoverMethodTable(t *testing.T) {
	for _, m := range protocol.Methods() {
		_, inSession := handlers[m.Name]
		if inSession == gatewayMethods[m.Name] {
			t.Errorf("%s: handled by session=%v, gateway=%v", m.Name, inSession, gatewayMethods[m.Name])
		}
	}
	for name := range handlers {
		if _, ok := protocol.Lookup(name); !ok {
			t.Errorf("session handles %s, which the protocol table does not accept", name)
		}
	}
}

func TestStripSpinner(t *testing.T) {
	for in, want := range map[string]string{
		"⠋ Working on it": "Working on it",
		"✳ Claude Code":   "Claude Code",
		"plain title":     "plain title",
		"":                "",
	} {
		if got := stripSpinner(in); got != want {
			t.Errorf("stripSpinner(%q) = %q, want %q", in, got, want)
		}
	}
}
