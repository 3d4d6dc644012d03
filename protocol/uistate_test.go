package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestUIState_Validate: client.ui_state.set takes keys that are strings,
// a split inside (0, 1) and a width of columns; anything else is
// invalid_params naming the field.
func TestUIState_Validate(t *testing.T) {
	cases := []struct {
		name, params, field string // field "" means valid
	}{
		{"keys", `{"collapsed_space_keys":["/repo/.git"]}`, ""},
		{"no keys folded", `{"collapsed_space_keys":[]}`, ""},
		{"split", `{"sidebar_section_split":0.25}`, ""},
		{"width", `{"sidebar_width":30}`, ""},
		{"all three", `{"collapsed_space_keys":["a","b"],"sidebar_section_split":0.5,"sidebar_width":20}`, ""},
		{"nothing", `{}`, "nothing to set"},
		{"keys null", `{"collapsed_space_keys":null}`, "nothing to set"},
		{"key not a string", `{"collapsed_space_keys":[1]}`, "collapsed_space_keys"},
		{"keys not an array", `{"collapsed_space_keys":"a"}`, "collapsed_space_keys"},
		{"empty key", `{"collapsed_space_keys":["a",""]}`, "collapsed_space_keys[1]"},
		{"key twice", `{"collapsed_space_keys":["a","a"]}`, "collapsed_space_keys[1]"},
		{"split zero", `{"sidebar_section_split":0}`, "sidebar_section_split"},
		{"split one", `{"sidebar_section_split":1}`, "sidebar_section_split"},
		{"split negative", `{"sidebar_section_split":-0.2}`, "sidebar_section_split"},
		{"split not a number", `{"sidebar_section_split":"half"}`, "sidebar_section_split"},
		{"width zero", `{"sidebar_width":0}`, "sidebar_width"},
		{"width huge", `{"sidebar_width":70000}`, "sidebar_width"},
		{"width fractional", `{"sidebar_width":20.5}`, "sidebar_width"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeParams("client.ui_state.set", json.RawMessage(c.params))
			if c.field == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if e := AsError(err); err == nil || e.Code != CodeInvalidParams || !strings.Contains(e.Message, c.field) {
				t.Fatalf("err = %v, want invalid_params naming %q", err, c.field)
			}
		})
	}
	if _, err := DecodeParams("client.ui_state.get", nil); err != nil {
		t.Errorf("client.ui_state.get: %v", err)
	}
}
