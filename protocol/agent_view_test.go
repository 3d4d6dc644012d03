package protocol

import "testing"

// Values a field can never equal are refused when the view is set, as
// Herdr does, instead of making a filter that silently matches nothing.
func TestAgentView_ValueMustFitField(t *testing.T) {
	for _, c := range []struct {
		filter string
		ok     bool
	}{
		{`{"op":"eq","field":"workspace_id","value":{"context":"current_workspace_id"}}`, true},
		{`{"op":"eq","field":"tab_id","value":{"context":"current_tab_id"}}`, true},
		{`{"op":"eq","field":"tab_id","value":{"context":"current_workspace_id"}}`, false},
		{`{"op":"in","field":"pane_id","values":["w1:p1",{"context":"current_tab_id"}]}`, false},
		{`{"op":"eq","field":{"token":"prio"},"value":{"context":"current_workspace_id"}}`, false},
		{`{"op":"eq","field":"seen","value":true}`, true},
		{`{"op":"eq","field":"seen","value":"yes"}`, false},
		{`{"op":"eq","field":"state_change_seq","value":3}`, true},
		{`{"op":"eq","field":"state_change_seq","value":"3"}`, false},
		{`{"op":"eq","field":"agent","value":7}`, false},
		{`{"op":"in","field":"status","values":["idle","done"]}`, true},
		{`{"op":"eq","field":"status","value":"sleeping"}`, false},
		{`{"op":"not","filter":{"op":"eq","field":{"token":"prio"},"value":"a"}}`, true},
	} {
		_, err := DecodeParams("agent.view.set", []byte(`{"source":"t","filter":`+c.filter+`}`))
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok=%v", c.filter, err, c.ok)
		} else if err != nil && AsError(err).Code != CodeInvalidAgentView {
			t.Errorf("%s: code %s, want %s", c.filter, AsError(err).Code, CodeInvalidAgentView)
		}
	}
}
