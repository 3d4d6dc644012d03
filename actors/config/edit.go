package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Editing config.toml in place (the client's settings screen, `herdr
// channel set`): one key changes and every other line stays as the person
// wrote it, comments and keys this build does not know included.

// SetKey sets key = value in [section] of a TOML text; value is a TOML
// literal (`"symbols"`, `true`, `26`). The key's line is replaced, keeping
// its indentation and trailing comment, whether it is written under the
// section's header or as a dotted key of a parent table; otherwise the
// line goes after the last key of the section, or a new section is
// appended. The result is parsed again and must say exactly what text
// said with that one value changed, so a text SetKey cannot edit safely
// (an inline table holding the key, a key inside a multi-line string) is
// an error and nothing is changed.
func SetKey(text, section, key, value string) (string, error) {
	var want any
	{
		var one map[string]any
		if err := toml.Unmarshal([]byte("v = "+value), &one); err != nil {
			return "", fmt.Errorf("%s.%s: bad value %s: %w", section, key, value, err)
		}
		want = one["v"]
	}
	var before map[string]any
	if err := toml.Unmarshal([]byte(text), &before); err != nil {
		return "", fmt.Errorf("the file is not valid TOML: %w", err)
	}
	out := setLine(text, section, key, value)
	var after map[string]any
	if err := toml.Unmarshal([]byte(out), &after); err != nil {
		return "", fmt.Errorf("setting %s.%s would make the file invalid TOML: %w", section, key, err)
	}
	if before == nil {
		before = map[string]any{}
	}
	setPath(before, strings.Split(section+"."+key, "."), want)
	if !reflect.DeepEqual(before, after) {
		return "", errors.New("cannot set " + section + "." + key + " without changing other keys (is it inside an inline table?); edit the file by hand")
	}
	return out, nil
}

// setLine is SetKey's edit, unchecked.
func setLine(text, section, key, value string) string {
	lines := strings.SplitAfter(text, "\n")
	want := section + "." + key
	current, header, last := "", -1, -1
	// dotted, dottedIn: the last line that sets a key of the section as
	// a dotted key of a parent table (a section so written cannot get a
	// header of its own), and that table.
	dotted, dottedIn := -1, ""
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if name, array, ok := TableHeader(t); ok {
			current = name
			if array {
				current = "\x00" // keys of an array of tables are never the one
			}
			if name == section && !array {
				header, last = i, i
			}
			continue
		}
		k, _, found := strings.Cut(t, "=")
		if !found || strings.HasPrefix(t, "#") {
			continue
		}
		full := dottedKey(k)
		if current != "" {
			full = current + "." + full
		}
		if full == want {
			indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
			lines[i] = indent + strings.TrimSpace(k) + " = " + value + trailingComment(t) + "\n"
			if !strings.HasSuffix(line, "\n") {
				lines[i] = strings.TrimSuffix(lines[i], "\n")
			}
			return strings.Join(lines, "")
		}
		if current == section && header >= 0 {
			last = i
		}
		if current != section && strings.HasPrefix(full, section+".") {
			dotted, dottedIn = i, current
		}
	}
	if header < 0 && dotted >= 0 {
		rel := want
		if dottedIn != "" {
			rel = strings.TrimPrefix(want, dottedIn+".")
		}
		header, last, key = dotted, dotted, rel
	}
	if header >= 0 {
		if !strings.HasSuffix(lines[last], "\n") {
			lines[last] += "\n"
		}
		lines = append(lines[:last+1], append([]string{key + " = " + value + "\n"}, lines[last+1:]...)...)
		return strings.Join(lines, "")
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if strings.TrimSpace(text) != "" {
		text += "\n"
	}
	return text + "[" + section + "]\n" + key + " = " + value + "\n"
}

// TableHeader reads a [table] or [[array]] header line: its dotted name
// (spaces and quotes around the parts dropped) and whether it is an array
// of tables. A row of a multi-line array (`["a", "b"],`) is no header.
func TableHeader(line string) (name string, array, ok bool) {
	if !strings.HasPrefix(line, "[") {
		return "", false, false
	}
	line, _, _ = strings.Cut(line, "#")
	line = strings.TrimSpace(line)
	array = strings.HasPrefix(line, "[[")
	if !strings.HasSuffix(line, "]") || array && !strings.HasSuffix(line, "]]") {
		return "", false, false
	}
	inner := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(line, "["), "["), "]"), "]")
	if strings.ContainsAny(inner, ",[]") {
		return "", false, false
	}
	return dottedKey(inner), array, true
}

// dottedKey normalises a key as written (`a . "b"`) to "a.b".
func dottedKey(k string) string {
	parts := strings.Split(strings.TrimSpace(k), ".")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == '"' && p[len(p)-1] == '"' || p[0] == '\'' && p[len(p)-1] == '\'') {
			p = p[1 : len(p)-1]
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}

// trailingComment is the " # …" after a key's value, outside its quotes.
func trailingComment(line string) string {
	_, v, _ := strings.Cut(line, "=")
	var quote byte
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == '"' && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && c == '#':
			return " " + v[i:]
		}
	}
	return ""
}

// setPath sets doc[a][b]… = v, making the tables on the way.
func setPath(doc map[string]any, path []string, v any) {
	for _, p := range path[:len(path)-1] {
		next, ok := doc[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			doc[p] = next
		}
		doc = next
	}
	doc[path[len(path)-1]] = v
}
