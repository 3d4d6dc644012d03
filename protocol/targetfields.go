package protocol

import (
	"reflect"
	"strings"
)

// Unknown params fields are ignored, as Herdr's serde does, so clients that
// send extra fields keep working, with one exception: a field that names
// an entity (pane_id, tab_id, workspace_id, …, target) where the method
// has target fields and none of them was given. There the method would
// fall back to the focused pane, tab or workspace, so a misspelt target
// (pane.split's is target_pane_id, not pane_id) used to act on whatever
// had the focus, in another workspace as like as not. Such a request
// answers invalid_params naming the field that was meant.

// targetFields are the top-level JSON keys of a params type that name an
// entity, in declaration order.
type targetFields []string

// targetFieldsOf lists the entity-naming keys of the struct p points to
// (embedded structs included).
func targetFieldsOf(p Params) targetFields {
	var out targetFields
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type)
				continue
			}
			if name == "" {
				name = f.Name
			}
			if !f.IsExported() || name == "-" {
				continue
			}
			if namesTarget(name) {
				out = append(out, name)
			}
		}
	}
	if t := reflect.TypeOf(p); t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		walk(t.Elem())
	}
	return out
}

// namesTarget reports whether a params key looks like it names an entity.
func namesTarget(key string) bool {
	switch key {
	case "target", "pane", "tab", "workspace":
		return true
	}
	return strings.HasSuffix(key, "_id") || strings.HasSuffix(key, "_ids")
}

// checkTargetFields refuses an unknown entity-naming key in raw (a valid
// JSON object) when none of the method's own target fields is present.
// Methods without target fields accept anything, as before.
func checkTargetFields(known targetFields, raw []byte) error {
	if len(known) == 0 {
		return nil
	}
	var unknown string
	given := false
	eachKey(raw, func(key string) bool {
		if !namesTarget(key) {
			return true
		}
		for _, k := range known {
			if k == key {
				given = true
				return false
			}
		}
		if unknown == "" {
			unknown = key
		}
		return true
	})
	if given || unknown == "" {
		return nil
	}
	return &Error{Code: CodeInvalidParams, Message: "invalid params: unknown field \"" + unknown + "\"; did you mean \"" + known.closest(unknown) + "\"?"}
}

// closest is the target field a misspelt key most likely meant: one that
// ends with it (pane_id → target_pane_id) or that it ends with, then one
// naming the same kind of entity, else the first.
func (known targetFields) closest(key string) string {
	for _, k := range known {
		if strings.HasSuffix(k, "_"+key) || strings.HasSuffix(key, "_"+k) {
			return k
		}
	}
	for _, kind := range []string{"pane", "tab", "workspace", "terminal", "layer"} {
		if strings.Contains(key, kind) {
			for _, k := range known {
				if strings.Contains(k, kind) {
					return k
				}
			}
		}
	}
	return known[0]
}

// eachKey calls f with each top-level key of the JSON object raw (valid
// JSON, already decoded once) until f returns false.
func eachKey(raw []byte, f func(key string) bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return
	}
	i++
	for {
		i = skipSpace(raw, i)
		if i >= len(raw) || raw[i] == '}' {
			return
		}
		if raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
		end := stringEnd(raw, i)
		key := string(raw[i+1 : end-1])
		if strings.IndexByte(key, '\\') >= 0 {
			key = unquoteKey(raw[i:end])
		}
		i = skipSpace(raw, skipSpace(raw, end)+1) // past the colon
		i = valueEnd(raw, i)
		if !f(key) {
			return
		}
	}
}

func unquoteKey(quoted []byte) string {
	var k string
	_ = Unmarshal(quoted, &k)
	return k
}
