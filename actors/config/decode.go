package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// field describes one scalar key of a section: where it lives in a Config,
// what it accepts, and the one line that explains it in the default file.
// The same table drives decoding and DefaultFile, so the two cannot drift.
type field struct {
	key string
	doc string
	// ptr returns the field's address inside c: *bool, *int, *string or *[]string.
	ptr func(c *Config) any
	// enum lists the accepted strings (after check, when both are set).
	enum []string
	// lo and hi bound an integer (both zero: any value of at least zero).
	lo, hi int64
	// check validates a string and returns the value to store.
	check func(s string) (string, error)
	// example is shown, commented out, when the default is empty: the key
	// is optional and has no value of its own.
	example string
}

// decoder walks the generic TOML map into a Config, collecting diagnostics.
type decoder struct {
	cfg   Config
	diags []string
}

func (d *decoder) addf(format string, args ...any) {
	d.diags = append(d.diags, fmt.Sprintf(format, args...))
}

// sectionDecoder names a top-level table and the method that decodes it.
type sectionDecoder struct {
	name   string
	decode func(d *decoder, t map[string]any)
}

// sectionDecoders lists every top-level table, in file order.
var sectionDecoders = []sectionDecoder{
	{"theme", (*decoder).theme},
	{"terminal", (*decoder).terminal},
	{"session", (*decoder).session},
	{"update", (*decoder).update},
	{"keys", (*decoder).keys},
	{"ui", (*decoder).ui},
	{"worktrees", (*decoder).worktrees},
	{"advanced", (*decoder).advanced},
	{"experimental", (*decoder).experimental},
	{"remote", (*decoder).remote},
	{"server", (*decoder).server},
	{"web", (*decoder).web},
	{"mcp", (*decoder).mcp},
	{"tasks", (*decoder).tasks},
	{"fleet", (*decoder).fleet},
	{"notify", (*decoder).notify},
}

func (d *decoder) walk(raw map[string]any) {
	for _, name := range sortedKeys(raw) {
		v := raw[name]
		if name == "onboarding" {
			if b, ok := v.(bool); ok {
				d.cfg.Onboarding = &b
			} else {
				d.addf("onboarding: expected a boolean, got %s; keeping it unset", typeName(v))
			}
			continue
		}
		i := slices.IndexFunc(sectionDecoders, func(s sectionDecoder) bool { return s.name == name })
		switch {
		case i >= 0:
			if t, ok := d.table(name, v); ok {
				sectionDecoders[i].decode(d, t)
			}
		case name == "policy":
			d.policies(v)
		case name == "toast":
			d.addf("unknown section [toast]: did you mean [ui.toast]?")
		default:
			if _, isTable := v.(map[string]any); isTable {
				d.addf("unknown section [%s]%s", name, nearestSection(name))
			} else {
				d.addf("unknown key %s", name)
			}
		}
	}
	d.legacyKittyGraphics(raw)
}

// nearestSection is "; did you mean [terminal]?" for the section a
// misspelt one ([termnal]) most likely meant, "" when none is close.
func nearestSection(name string) string {
	known := make([]string, 0, len(sectionDecoders))
	for _, s := range sectionDecoders {
		known = append(known, s.name)
	}
	if near := protocol.Closest(name, known); near != "" {
		return "; did you mean [" + near + "]?"
	}
	return ""
}

// fields decodes the keys of section t described by specs; keys named in
// special are left to the caller and any other key is reported unknown.
func (d *decoder) fields(section string, t map[string]any, specs []field, special ...string) {
	for _, k := range sortedKeys(t) {
		full := section + "." + k
		i := slices.IndexFunc(specs, func(f field) bool { return f.key == k })
		switch {
		case i >= 0:
			d.set(full, specs[i], t[k])
		case slices.Contains(special, k):
		default:
			d.addf("unknown key %s%s", full, nearestField(section, k, specs, special))
		}
	}
}

// nearestField is ": did you mean SECTION.KEY?" for the known key a
// misspelt one most likely meant (sidebar_widht → sidebar_width), "" when
// none is close.
func nearestField(section, k string, specs []field, special []string) string {
	known := slices.Clone(special)
	for _, f := range specs {
		known = append(known, f.key)
	}
	if near := protocol.Closest(k, known); near != "" {
		return "; did you mean " + section + "." + near + "?"
	}
	return ""
}

// set stores v in the field f describes, or reports why not and keeps the
// default.
func (d *decoder) set(full string, f field, v any) {
	switch p := f.ptr(&d.cfg).(type) {
	case *bool:
		if b, ok := v.(bool); ok {
			*p = b
		} else {
			d.addf("%s: expected a boolean, got %s; using default %v", full, typeName(v), *p)
		}
	case *int:
		hi := f.hi
		if f.lo == 0 && hi == 0 {
			hi = 1<<53 - 1
		}
		d.intKey(full, v, f.lo, hi, p)
	case *string:
		s, ok := v.(string)
		if !ok {
			d.addf("%s: expected a string, got %s; using default %q", full, typeName(v), *p)
			return
		}
		if f.check != nil {
			norm, err := f.check(s)
			if err != nil {
				d.addf("%s: %v; using default %q", full, err, *p)
				return
			}
			s = norm
		}
		if f.enum != nil && !slices.Contains(f.enum, s) {
			d.addf("%s: invalid value %q (allowed: %s); using default %q", full, s, quoteAll(f.enum), *p)
			return
		}
		*p = s
	case *[]string:
		if list, ok := d.strings(full, v); ok {
			*p = list
		}
	default:
		panic(fmt.Sprintf("config: field %s has unsupported type %T", full, p))
	}
}

// strings decodes an array of strings, reporting key when v is not one.
func (d *decoder) strings(key string, v any) ([]string, bool) {
	arr, ok := v.([]any)
	if !ok {
		d.addf("%s: expected an array of strings, got %s; using the default", key, typeName(v))
		return nil, false
	}
	var out []string
	for i, x := range arr {
		s, ok := x.(string)
		if !ok {
			d.addf("%s[%d]: expected a string, got %s; using the default", key, i, typeName(x))
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// table checks that v is a TOML table; otherwise it reports key and returns false.
func (d *decoder) table(key string, v any) (map[string]any, bool) {
	t, ok := v.(map[string]any)
	if !ok {
		d.addf("%s: expected a table, got %s; using defaults for it", key, typeName(v))
	}
	return t, ok
}

// subtable decodes t[key] with decode when present and a table.
func (d *decoder) subtable(section string, t map[string]any, key string, decode func(map[string]any)) {
	v, ok := t[key]
	if !ok {
		return
	}
	if sub, ok := d.table(section+"."+key, v); ok {
		decode(sub)
	}
}

// intKey stores an integer within [lo, hi] in dst, or reports why not and
// keeps dst's default.
func (d *decoder) intKey(full string, v any, lo, hi int64, dst *int) {
	n, isInt := v.(int64)
	switch {
	case !isInt:
		d.addf("%s: expected an integer, got %s; using default %d", full, typeName(v), *dst)
	case n < lo:
		d.addf("%s: must be at least %d, got %d; using default %d", full, lo, n, *dst)
	case n > hi:
		d.addf("%s: %d is too large (at most %d); using default %d", full, n, hi, *dst)
	default:
		*dst = int(n)
	}
}

func quoteAll(list []string) string {
	quoted := make([]string, len(list))
	for i, a := range list {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(quoted, ", ")
}

// typeName names the TOML type of a value decoded by go-toml into any.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case map[string]any:
		return "a table"
	case []any:
		return "an array"
	case nil:
		return "nothing"
	default:
		return fmt.Sprintf("a %T", v) // Dates and times.
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
