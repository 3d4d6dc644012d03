package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/herdr-go/herdr/protocol"
)

// object is a JSON object that keeps its members' order and their exact
// values, so a settings file herdr edits differs from the user's only in
// the members herdr touched.
type object struct {
	keys []string
	vals map[string]json.RawMessage
	// bom is set on a file's root object that began with a UTF-8 byte
	// order mark: render puts it back, so the file changes only where
	// herdr changed it (the agent reading it already copes with it).
	bom bool
}

func newObject() *object { return &object{vals: map[string]json.RawMessage{}} }

// utf8BOM is the byte order mark some Windows editors start a file with.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// parseObject decodes a settings file's JSON object; empty input is an
// empty object. A leading byte order mark is set aside (and remembered).
// A key that appears twice in an object, at any depth, is an error
// naming it: JSON readers disagree on which one wins, and rewriting the
// file would silently keep one.
func parseObject(data []byte) (*object, error) {
	o := newObject()
	if rest, ok := bytes.CutPrefix(data, utf8BOM); ok {
		data, o.bom = rest, true
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return o, nil
	}
	if err := noDuplicateKeys(data); err != nil { // first: its error names the key's path
		return nil, err
	}
	if err := protocol.Unmarshal(data, o); err != nil {
		return nil, err
	}
	return o, nil
}

// noDuplicateKeys walks a JSON text (valid: it has been decoded) and
// reports the first object key that appears twice in its object.
func noDuplicateKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return walkKeys(dec, "")
}

// walkKeys reads one value from dec; where names it ("" at the top).
func walkKeys(dec *json.Decoder, where string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar
	}
	switch d {
	case '{':
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key := tok.(string)
			if seen[key] {
				if where == "" {
					return fmt.Errorf("key %q appears twice", key)
				}
				return fmt.Errorf("key %q appears twice in %s", key, where)
			}
			seen[key] = true
			if err := walkKeys(dec, joinWhere(where, key)); err != nil {
				return err
			}
		}
	case '[':
		for i := 0; dec.More(); i++ {
			if err := walkKeys(dec, fmt.Sprintf("%s[%d]", where, i)); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

// joinWhere extends a member path: "hooks", then "hooks.Stop".
func joinWhere(where, key string) string {
	if where == "" {
		return fmt.Sprintf("%q", key)
	}
	return fmt.Sprintf("%s.%q", where, key)
}

// UnmarshalJSON implements json.Unmarshaler.
func (o *object) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("expected a JSON object")
	}
	if o.vals == nil {
		o.vals = map[string]json.RawMessage{}
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if _, dup := o.vals[key]; !dup {
			o.keys = append(o.keys, key)
		}
		o.vals[key] = raw
	}
	_, err = dec.Token()
	return err
}

// MarshalJSON implements json.Marshaler.
func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (o *object) has(key string) bool { _, ok := o.vals[key]; return ok }

func (o *object) len() int { return len(o.keys) }

// set stores v under key, in place when the key exists, else last.
func (o *object) set(key string, v any) error {
	raw, err := encode(v)
	if err != nil {
		return err
	}
	if !o.has(key) {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = raw
	return nil
}

func (o *object) del(key string) {
	if !o.has(key) {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// child returns the object under key (a new empty one when absent); what
// says which file and member, for the error when it is not an object.
func (o *object) child(key, what string) (*object, error) {
	raw, ok := o.vals[key]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return newObject(), nil
	}
	c := newObject()
	if err := protocol.Unmarshal(raw, c); err != nil {
		return nil, fmt.Errorf("%s: %q must be a JSON object", what, key)
	}
	return c, nil
}

// array returns the array under key (nil when absent).
func (o *object) array(key, what string) ([]json.RawMessage, error) {
	raw, ok := o.vals[key]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	var out []json.RawMessage
	if err := protocol.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%s: %q must be a JSON array", what, key)
	}
	return out, nil
}

// str returns the string member key, "" when absent or not a string.
func (o *object) str(key string) string {
	var s string
	if raw, ok := o.vals[key]; ok && protocol.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// encode marshals v without HTML escaping (hook commands may hold & < >).
func encode(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimRight(b.Bytes(), "\n")), nil
}

// render is the file text of a settings object: two-space indent, newline.
func render(o *object) ([]byte, error) {
	var b bytes.Buffer
	if o.bom {
		b.Write(utf8BOM)
	}
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(o); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
