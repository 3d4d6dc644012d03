package protocol

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
)

// Machine-qualified ids: "<machine>/<id>", the machine a saved machine's
// label or id. A call whose target fields hold one is decoded as
// Forwarded — checked here against the method's own params, so bad input
// is refused locally — and answered by the machine's server; its answer
// comes back with every id qualified and a "machine" on each object that
// carries one (QualifyJSON).

// Forwarded is the params of a call for another machine: Raw is the
// params with the machine's own ids, Inner their decoded form.
type Forwarded struct {
	Machine string
	Raw     json.RawMessage
	Inner   Params
}

// Validate implements Params (Inner is already validated).
func (*Forwarded) Validate() error { return nil }

// Waits implements Waiting for a forwarded wait, so its deadline is the
// wait's own.
func (f *Forwarded) Waits() (bool, time.Duration) {
	if w, ok := f.Inner.(Waiting); ok {
		return w.Waits()
	}
	return false, 0
}

// DecodeRouted is DecodeParams for a connection: params naming a
// qualified id decode as *Forwarded. All of a call's qualified ids must
// name one machine, and a stream cannot be forwarded (its lines would
// need a relay of their own: attach with --machine for that).
func DecodeRouted(method string, raw json.RawMessage) (Params, error) {
	if !bytes.Contains(raw, []byte{'/'}) {
		return DecodeParams(method, raw)
	}
	if method == "events.subscribe" {
		// A fleet subscription names other machines' panes as they are:
		// the machines actor checks the machines, the bus filters their
		// events by them.
		p, err := DecodeParams(method, raw)
		if err != nil {
			return nil, err
		}
		sp := p.(*EventsSubscribeParams)
		if m, ok := sp.NamesMachine(); ok && !sp.AllMachines() {
			return nil, Errorf(CodeNotSupported, "events.subscribe names machine %q's pane: subscribe with \"machines\":\"all\", or attach with herdr --machine %s", m, m)
		}
		return p, nil
	}
	var v any
	if UnmarshalNumbers(raw, &v) != nil {
		return DecodeParams(method, raw) // its own error
	}
	machine := ""
	var conflict error
	local := unqualify(v, "", func(field, m string) {
		switch {
		case machine == "":
			machine = m
		case machine != m && conflict == nil:
			conflict = ParamError(field, "qualified ids of one call must name one machine (%q and %q)", machine, m)
		}
	})
	if conflict != nil {
		return nil, conflict
	}
	if machine == "" {
		return DecodeParams(method, raw)
	}
	if m, _ := Lookup(method); m.Shape == ShapeStream || m.Shape == ShapeWatch || m.Shape == ShapeFrames {
		return nil, Errorf(CodeNotSupported, "%s cannot be forwarded to machine %q: subscribe with \"machines\":\"all\", or attach with herdr --machine %s", method, machine, machine)
	}
	unq, err := json.Marshal(local)
	if err != nil {
		return nil, ParamError("params", "%v", err)
	}
	inner, err := DecodeParams(method, unq)
	if err != nil {
		return nil, err
	}
	return &Forwarded{Machine: machine, Raw: unq, Inner: inner}, nil
}

// unqualify returns v with the machine prefix cut from every string under
// an entity-naming key, telling found each machine it cut.
func unqualify(v any, key string, found func(field, machine string)) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = unqualify(e, k, found)
		}
	case []any:
		for i, e := range t {
			t[i] = unqualify(e, key, found)
		}
	case string:
		if key != "" && namesTarget(key) {
			if m, id, ok := SplitQualified(t); ok {
				found(key, m)
				return id
			}
		}
	}
	return v
}

// isIDKey reports whether an answer's key holds a workspace, tab, pane or
// terminal id (or a list of them), which a remote answer qualifies.
func isIDKey(key string) bool {
	key = strings.TrimSuffix(key, "s")
	for _, s := range []string{"workspace_id", "tab_id", "pane_id", "terminal_id"} {
		if strings.HasSuffix(key, s) {
			return true
		}
	}
	return false
}

// QualifyValue qualifies a decoded answer in place: every id under an id
// key gets the machine's label as prefix, and every object holding one
// gets "machine". It returns v.
func QualifyValue(v any, ref MachineRef) any {
	switch t := v.(type) {
	case map[string]any:
		has := false
		for k, e := range t {
			if isIDKey(k) {
				switch id := e.(type) {
				case string:
					if id != "" {
						t[k] = ref.Label + "/" + id
					}
					has = true
				case []any:
					for i, x := range id {
						if s, ok := x.(string); ok {
							id[i] = ref.Label + "/" + s
						}
					}
					has = true
				}
				continue
			}
			t[k] = QualifyValue(e, ref)
		}
		if has {
			t["machine"] = ref
		}
	case []any:
		for i, e := range t {
			t[i] = QualifyValue(e, ref)
		}
	}
	return v
}

// DecodeJSON decodes raw keeping numbers exact (ids and sequence numbers
// pass through unchanged).
func DecodeJSON(raw []byte) (any, error) {
	var v any
	if err := UnmarshalNumbers(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// QualifyResult turns a remote answer's result object into a local
// answer: its type, and its other members qualified.
func QualifyResult(raw []byte, ref MachineRef) (Encoded, error) {
	v, err := DecodeJSON(raw)
	if err != nil {
		return Encoded{}, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return Encoded{}, Errorf(CodeInternal, "machine %s answered a result that is not an object", ref.Label)
	}
	typ, _ := obj["type"].(string)
	delete(obj, "type")
	body, err := json.Marshal(QualifyValue(obj, ref))
	if err != nil {
		return Encoded{}, err
	}
	return Encoded{Type: typ, JSON: body}, nil
}

// ToMachines reports whether a connection sends a call with these params
// to the machines actor, whatever its table owner: a call for another
// machine, or a fleet-scoped list.
func ToMachines(p Params) bool {
	switch t := p.(type) {
	case *Forwarded:
		return true
	case *FleetParams:
		return t.AllMachines()
	case *EventsSubscribeParams:
		_, names := t.NamesMachine()
		return names && t.AllMachines()
	}
	return false
}
