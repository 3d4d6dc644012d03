package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// AgentViewSetParams are the params of agent.view.set: a filter and sort
// order over the agent list, owned by a source.
type AgentViewSetParams struct {
	Source    string          `json:"source"`
	Label     *string         `json:"label,omitempty"`
	RawFilter json.RawMessage `json:"filter,omitempty"`
	RawSort   json.RawMessage `json:"sort,omitempty"`

	// Filter and Sort are RawFilter and RawSort decoded by Validate, so a
	// malformed view is invalid_agent_view rather than invalid_params.
	Filter *AgentViewFilter `json:"-"`
	Sort   []AgentViewSort  `json:"-"`
}

// AgentViewClearParams are the params of agent.view.clear.
type AgentViewClearParams struct {
	Source *string `json:"source,omitempty"`
}

// Validate implements Params.
func (p *AgentViewClearParams) Validate() error { return nil }

// AgentViewFilter is one node of a view filter: all/any/not combine
// filters, eq/in/exists test a field.
type AgentViewFilter struct {
	Op      string            `json:"op"`
	Filters []AgentViewFilter `json:"filters,omitempty"`
	Filter  *AgentViewFilter  `json:"filter,omitempty"`
	Field   *AgentViewField   `json:"field,omitempty"`
	Value   *AgentViewValue   `json:"value,omitempty"`
	Values  []AgentViewValue  `json:"values,omitempty"`
}

// AgentViewField is a built-in field name or a token {"token":"name"}.
type AgentViewField struct {
	Name  string // built-in field, or "" for a token
	Token string
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *AgentViewField) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return Unmarshal(b, &f.Name)
	}
	var t struct {
		Token *string `json:"token"`
	}
	if err := Unmarshal(b, &t); err != nil || t.Token == nil {
		return fmt.Errorf("field must be a name or {\"token\":…}")
	}
	f.Token = *t.Token
	return nil
}

// String names the field as errors show it.
func (f AgentViewField) String() string {
	if f.Name == "" {
		return "token " + f.Token
	}
	return f.Name
}

// MarshalJSON implements json.Marshaler.
func (f AgentViewField) MarshalJSON() ([]byte, error) {
	if f.Name != "" {
		return json.Marshal(f.Name)
	}
	return json.Marshal(map[string]string{"token": f.Token})
}

// AgentViewValue is a string, bool, unsigned integer or {"context":…}.
type AgentViewValue struct {
	Raw json.RawMessage
}

// UnmarshalJSON implements json.Unmarshaler.
func (v *AgentViewValue) UnmarshalJSON(b []byte) error {
	v.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// MarshalJSON implements json.Marshaler.
func (v AgentViewValue) MarshalJSON() ([]byte, error) { return v.Raw, nil }

// Decode returns the value as string, bool or uint64, or the context name
// with isContext set.
func (v AgentViewValue) Decode() (val any, isContext bool, err error) {
	raw := bytes.TrimSpace(v.Raw)
	if len(raw) == 0 {
		return nil, false, fmt.Errorf("missing value")
	}
	switch raw[0] {
	case '"':
		var s string
		err := Unmarshal(raw, &s)
		return s, false, err
	case 't', 'f':
		var b bool
		err := Unmarshal(raw, &b)
		return b, false, err
	case '{':
		var c struct {
			Context string `json:"context"`
		}
		if err := Unmarshal(raw, &c); err != nil {
			return nil, false, err
		}
		if c.Context != "current_workspace_id" && c.Context != "current_tab_id" {
			return nil, false, fmt.Errorf("unknown context %q", c.Context)
		}
		return c.Context, true, nil
	}
	var n uint64
	if err := Unmarshal(raw, &n); err != nil {
		return nil, false, fmt.Errorf("value must be a string, boolean, unsigned integer or {\"context\":…}")
	}
	return n, false, nil
}

// AgentViewSort is one sort key.
type AgentViewSort struct {
	Field AgentViewField `json:"field"`
	Order string         `json:"order,omitempty"`
}

var tokenName = LazyRegexp(`^[A-Za-z0-9_-]{1,32}$`)

// viewField and viewSortField say whether name is a field a view filters
// or sorts on (switches: a map literal is built at every start).
func viewField(name string) bool {
	switch name {
	case "status", "workspace_id", "tab_id", "pane_id", "agent", "seen", "state_change_seq":
		return true
	}
	return false
}

func viewSortField(name string) bool {
	switch name {
	case "workspace_order", "tab_order", "pane_order", "attention", "status", "agent", "seen", "state_change_seq":
		return true
	}
	return false
}

func viewError(format string, args ...any) error {
	return Errorf(CodeInvalidAgentView, "invalid agent view: "+format, args...)
}

// Validate implements Params.
func (p *AgentViewSetParams) Validate() error {
	if err := required("source", p.Source); err != nil {
		return err
	}
	if err := validSource("source", p.Source); err != nil {
		return err
	}
	if raw := bytes.TrimSpace(p.RawFilter); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		p.Filter = &AgentViewFilter{}
		if err := Unmarshal(raw, p.Filter); err != nil {
			return viewError("filter: %v", err)
		}
	}
	if raw := bytes.TrimSpace(p.RawSort); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if err := Unmarshal(raw, &p.Sort); err != nil {
			return viewError("sort: %v", err)
		}
	}
	if p.Filter != nil {
		if err := p.Filter.validate(0); err != nil {
			return err
		}
	}
	for _, s := range p.Sort {
		if s.Field.Token != "" || s.Field.Name == "" {
			if !tokenName().MatchString(s.Field.Token) {
				return viewError("sort token %q", s.Field.Token)
			}
		} else if !viewSortField(s.Field.Name) {
			return viewError("unknown sort field %q", s.Field.Name)
		}
		if s.Order != "" && s.Order != "asc" && s.Order != "desc" {
			return viewError("sort order %q (asc or desc)", s.Order)
		}
	}
	return nil
}

func (f *AgentViewFilter) validate(depth int) error {
	if depth > 16 {
		return viewError("filter nested too deeply")
	}
	switch f.Op {
	case "all", "any":
		for i := range f.Filters {
			if err := f.Filters[i].validate(depth + 1); err != nil {
				return err
			}
		}
		return nil
	case "not":
		if f.Filter == nil {
			return viewError("not needs a filter")
		}
		return f.Filter.validate(depth + 1)
	case "eq", "in", "exists":
		if f.Field == nil {
			return viewError("%s needs a field", f.Op)
		}
		if f.Field.Name != "" && !viewField(f.Field.Name) {
			return viewError("unknown field %q", f.Field.Name)
		}
		if f.Field.Name == "" && !tokenName().MatchString(f.Field.Token) {
			return viewError("token field %q", f.Field.Token)
		}
		values := f.Values
		switch f.Op {
		case "eq":
			if f.Value == nil {
				return viewError("eq needs a value")
			}
			values = []AgentViewValue{*f.Value}
		case "in":
			if f.Values == nil {
				return viewError("in needs values")
			}
		}
		for _, v := range values {
			if err := checkViewValue(*f.Field, v); err != nil {
				return err
			}
		}
		return nil
	}
	return viewError("unknown op %q", f.Op)
}

// checkViewValue rejects a value a field can never equal: a context
// compared with another field than its own, a type the field does not
// have, a status that does not exist.
func checkViewValue(field AgentViewField, v AgentViewValue) error {
	val, isContext, err := v.Decode()
	if err != nil {
		return viewError("%v", err)
	}
	if isContext {
		if (val == "current_workspace_id" && field.Name == "workspace_id") || (val == "current_tab_id" && field.Name == "tab_id") {
			return nil
		}
		return viewError("context %s cannot be compared with field %s", val, field)
	}
	want := "string"
	switch field.Name {
	case "seen":
		want = "boolean"
	case "state_change_seq":
		want = "unsigned integer"
	}
	got := "string"
	switch x := val.(type) {
	case bool:
		got = "boolean"
	case uint64:
		got = "unsigned integer"
	case string:
		if field.Name == "status" && !slices.Contains([]string{"idle", "working", "blocked", "done", "unknown"}, x) {
			return viewError("unknown agent status %q", x)
		}
	}
	if got != want {
		return viewError("field %s takes a %s value, not a %s", field, want, got)
	}
	return nil
}
