package cli

import (
	"slices"
	"testing"
)

// Each placeholder that names a live object gets the kind it names, read
// from the Use lines of the real command tree.
func TestComplete_ArgKindsOfTheTree(t *testing.T) {
	root := testApp().rootCmd([]string{"__complete"})
	for _, tt := range []struct {
		path     []string
		kinds    []liveKind
		variadic bool
	}{
		{[]string{"pane", "read"}, []liveKind{livePane}, false},
		{[]string{"pane", "split"}, []liveKind{livePane}, false},
		{[]string{"pane", "focus"}, []liveKind{livePane}, false},
		{[]string{"pane", "send-keys"}, []liveKind{livePane, liveNone}, true},
		{[]string{"workspace", "move-block"}, []liveKind{liveWorkspace}, true},
		{[]string{"tab", "close"}, []liveKind{liveTab}, false},
		{[]string{"agent", "read"}, []liveKind{liveAgent}, false},
		{[]string{"task", "attach"}, []liveKind{liveNone, liveAgent}, false},
		{[]string{"terminal", "session", "observe"}, []liveKind{livePane}, false},
		{[]string{"plugin", "disable"}, []liveKind{livePlugin}, false},
		{[]string{"plugin", "uninstall"}, []liveKind{livePlugin}, false},
		{[]string{"plugin", "action", "invoke"}, []liveKind{livePlugin, liveNone}, false},
	} {
		c, _, err := root.Find(tt.path)
		if err != nil {
			t.Fatalf("%v: %v", tt.path, err)
		}
		kinds, variadic := argKinds(tt.path[0], c.Use)
		if !slices.Equal(kinds, tt.kinds) || variadic != tt.variadic {
			t.Errorf("%v (%q): kinds %v variadic %v, want %v %v", tt.path, c.Use, kinds, variadic, tt.kinds, tt.variadic)
		}
		if c.ValidArgsFunction == nil {
			t.Errorf("%v: no completion of its arguments", tt.path)
		}
	}
	// Words that name nothing live get no server round trip.
	for _, path := range [][]string{{"pane", "list"}, {"machine", "add"}, {"session", "attach"}} {
		if c, _, err := root.Find(path); err != nil || c.ValidArgsFunction != nil {
			t.Errorf("%v: a live completion (%v)", path, err)
		}
	}
	// The flags that name a live object complete from the server.
	for _, tt := range []struct {
		path []string
		flag string
	}{
		{[]string{"pane", "list"}, "workspace"},
		{[]string{"tab", "list"}, "workspace"},
		{[]string{"pane", "swap"}, "target-pane"},
		{[]string{"plugin", "action", "list"}, "plugin"},
	} {
		c, _, err := root.Find(tt.path)
		if err != nil {
			t.Fatalf("%v: %v", tt.path, err)
		}
		if _, ok := c.GetFlagCompletionFunc(tt.flag); !ok {
			t.Errorf("%v --%s: no completion", tt.path, tt.flag)
		}
	}
}
