package setup

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/herdr-go/herdr/protocol"
)

// lines splits text into lines without their newlines.
func lines(data []byte) []string {
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func join(ls []string) []byte {
	if len(ls) == 0 {
		return nil
	}
	return []byte(strings.Join(ls, "\n") + "\n")
}

// parseTOML checks that data is valid TOML and returns it as a map.
func parseTOML(path string, data []byte) (map[string]any, error) {
	m := map[string]any{}
	if err := toml.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return m, nil
}

var tomlHeader = protocol.LazyRegexp(`^\s*\[`)

// codexFeatures turns on `[features] hooks = true` in Codex's config.toml,
// editing the file by lines so the user's comments and layout stay; the
// result is checked with a TOML parser before it is written. Uninstall
// leaves it on: other hooks may rely on it.
type codexFeatures struct{ file string }

func (c codexFeatures) install(dir, _ string) ([]string, error) {
	path := filepath.Join(dir, c.file)
	data, err := readOptional(path)
	if err != nil {
		return nil, err
	}
	m, err := parseTOML(path, data)
	if err != nil {
		return nil, err
	}
	if f, ok := m["features"].(map[string]any); ok && f["hooks"] == true {
		return []string{"hooks already enabled in " + path}, nil
	}
	ls := lines(data)
	at := -1
	for i, l := range ls {
		if strings.TrimSpace(l) == "[features]" {
			at = i
			break
		}
	}
	if at < 0 {
		if len(ls) > 0 && strings.TrimSpace(ls[len(ls)-1]) != "" {
			ls = append(ls, "")
		}
		ls = append(ls, "[features]", "hooks = true")
	} else {
		end := len(ls)
		for i := at + 1; i < len(ls); i++ {
			if tomlHeader().MatchString(ls[i]) {
				end = i
				break
			}
		}
		replaced := false
		for i := at + 1; i < end; i++ {
			if k, _, ok := strings.Cut(ls[i], "="); ok && strings.TrimSpace(k) == "hooks" {
				ls[i] = "hooks = true"
				replaced = true
			}
		}
		if !replaced {
			ls = append(ls[:at+1], append([]string{"hooks = true"}, ls[at+1:]...)...)
		}
	}
	out := join(ls)
	m, err = parseTOML(path, out)
	if f, ok := m["features"].(map[string]any); err != nil || !ok || f["hooks"] != true {
		return nil, fmt.Errorf("could not enable hooks in %s; add `hooks = true` under [features] yourself", path)
	}
	if _, err := writeFile(path, out, 0o644); err != nil {
		return nil, err
	}
	return []string{"enabled [features] hooks in " + path}, nil
}

func (codexFeatures) uninstall(string, string) ([]string, error) { return nil, nil }

// Kimi's managed block in config.toml.
const (
	kimiBegin = "# >>> herdr kimi integration"
	kimiEnd   = "# <<< herdr kimi integration"
)

// kimiHooks registers the hook as [[hooks]] tables inside a herdr-managed
// block at the end of Kimi Code's config.toml.
type kimiHooks struct {
	file   string
	events []hookEvent
}

type kimiHook struct {
	Event   string `toml:"event"`
	Matcher string `toml:"matcher,omitempty"`
	Command string `toml:"command"`
	Timeout int    `toml:"timeout"`
}

// withoutBlock returns the lines outside herdr's managed block (and any
// blank lines it leaves at the end), and whether there was one.
func withoutBlock(ls []string, begin, end string) ([]string, bool) {
	var out []string
	in, found := false, false
	for _, l := range ls {
		switch {
		case !in && strings.HasPrefix(strings.TrimSpace(l), begin):
			in, found = true, true
		case in && strings.TrimSpace(l) == end:
			in = false
		case !in:
			out = append(out, l)
		}
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out, found
}

func (k kimiHooks) install(dir, script string) ([]string, error) {
	path := filepath.Join(dir, k.file)
	data, err := readOptional(path)
	if err != nil {
		return nil, err
	}
	if _, err := parseTOML(path, data); err != nil {
		return nil, err
	}
	ls, _ := withoutBlock(lines(data), kimiBegin, kimiEnd)
	hooks := make([]kimiHook, len(k.events))
	for i, ev := range k.events {
		hooks[i] = kimiHook{Event: ev.Event, Matcher: ev.Matcher, Command: hookCommand(script, ev.Action), Timeout: 10}
	}
	block, err := toml.Marshal(struct {
		Hooks []kimiHook `toml:"hooks"`
	}{hooks})
	if err != nil {
		return nil, err
	}
	if len(ls) > 0 {
		ls = append(ls, "")
	}
	ls = append(ls, kimiBegin)
	ls = append(ls, lines(bytes.TrimSpace(block))...)
	ls = append(ls, kimiEnd)
	out := join(ls)
	if _, err := parseTOML(path, out); err != nil {
		return nil, fmt.Errorf("herdr's hooks would break %s: %w", path, err)
	}
	wrote, err := writeFile(path, out, 0o644)
	if err != nil {
		return nil, err
	}
	if !wrote {
		return []string{"hooks already registered in " + path}, nil
	}
	return []string{"registered hooks in " + path}, nil
}

func (k kimiHooks) uninstall(dir, _ string) ([]string, error) {
	path := filepath.Join(dir, k.file)
	data, err := readOptional(path)
	if err != nil || data == nil {
		return nil, err
	}
	ls, found := withoutBlock(lines(data), kimiBegin, kimiEnd)
	if !found {
		return nil, nil
	}
	if _, err := writeFile(path, join(ls), 0o644); err != nil {
		return nil, err
	}
	return []string{"removed herdr hooks from " + path}, nil
}

// hermesConfig lists the plugin under `plugins: enabled:` in Hermes's
// config.yaml. There is no YAML library here, so the edit is by lines and
// handles the block form (and a flow list for enabled); any other shape is
// left alone with a message saying what to add.
type hermesConfig struct{ file, plugin string }

var yamlKey = protocol.LazyRegexp(`^(\s*)([A-Za-z0-9_-]+):\s*(.*?)\s*(#.*)?$`)

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

func blankOrComment(l string) bool {
	t := strings.TrimSpace(l)
	return t == "" || strings.HasPrefix(t, "#")
}

// yamlBlock returns [start+1, end) of the lines indented under line start.
func yamlBlock(ls []string, start int) int {
	base := indentOf(ls[start])
	for i := start + 1; i < len(ls); i++ {
		if !blankOrComment(ls[i]) && indentOf(ls[i]) <= base {
			return i
		}
	}
	return len(ls)
}

// findKey finds `key:` at exactly indent within [from, to).
func findKey(ls []string, from, to, indent int, key string) (int, string) {
	for i := from; i < to; i++ {
		if m := yamlKey().FindStringSubmatch(ls[i]); m != nil && len(m[1]) == indent && m[2] == key {
			return i, m[3]
		}
	}
	return -1, ""
}

func (h hermesConfig) item(l string) bool {
	t := strings.TrimSpace(l)
	if !strings.HasPrefix(t, "-") {
		return false
	}
	v := strings.Trim(strings.TrimSpace(strings.TrimPrefix(t, "-")), `"'`)
	return v == h.plugin
}

// flow edits a flow list value ("[a, b]"), adding or removing the plugin.
func (h hermesConfig) flow(v string, add bool) (string, bool) {
	if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
		return v, false
	}
	var items []string
	for _, it := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(v, "["), "]"), ",") {
		if it = strings.TrimSpace(it); it != "" && strings.Trim(it, `"'`) != h.plugin {
			items = append(items, it)
		}
	}
	if add {
		items = append(items, h.plugin)
	}
	return "[" + strings.Join(items, ", ") + "]", true
}

func (h hermesConfig) install(dir, _ string) ([]string, error) {
	path := filepath.Join(dir, h.file)
	data, err := readOptional(path)
	if err != nil {
		return nil, err
	}
	ls := lines(data)
	manual := []string{fmt.Sprintf("could not edit %s: add %s to plugins.enabled yourself", path, h.plugin)}
	p, pv := findKey(ls, 0, len(ls), 0, "plugins")
	switch {
	case p < 0:
		ls = append(ls, "plugins:", "  enabled:", "    - "+h.plugin)
	case pv != "":
		return manual, nil
	default:
		end := yamlBlock(ls, p)
		child := 2
		for i := p + 1; i < end; i++ {
			if !blankOrComment(ls[i]) {
				child = indentOf(ls[i])
				break
			}
		}
		e, ev := findKey(ls, p+1, end, child, "enabled")
		switch {
		case e < 0:
			ls = append(ls[:p+1], append([]string{strings.Repeat(" ", child) + "enabled:", strings.Repeat(" ", child+2) + "- " + h.plugin}, ls[p+1:]...)...)
		case ev != "":
			nv, ok := h.flow(ev, true)
			if !ok {
				return manual, nil
			}
			if nv == ev {
				return []string{h.plugin + " already enabled in " + path}, nil
			}
			ls[e] = strings.Repeat(" ", child) + "enabled: " + nv
		default:
			eend := yamlBlock(ls, e)
			itemIndent := child + 2
			for i := e + 1; i < eend; i++ {
				if h.item(ls[i]) {
					return []string{h.plugin + " already enabled in " + path}, nil
				}
				if strings.HasPrefix(strings.TrimSpace(ls[i]), "-") {
					itemIndent = indentOf(ls[i])
				}
			}
			// Items may sit at the key's own indent in YAML; look there too.
			for i := eend; i < len(ls) && strings.HasPrefix(strings.TrimSpace(ls[i]), "-") && indentOf(ls[i]) == child; i++ {
				if h.item(ls[i]) {
					return []string{h.plugin + " already enabled in " + path}, nil
				}
				itemIndent = child
			}
			ls = append(ls[:e+1], append([]string{strings.Repeat(" ", itemIndent) + "- " + h.plugin}, ls[e+1:]...)...)
		}
	}
	if _, err := writeFile(path, join(ls), 0o644); err != nil {
		return nil, err
	}
	return []string{"enabled " + h.plugin + " in " + path}, nil
}

func (h hermesConfig) uninstall(dir, _ string) ([]string, error) {
	path := filepath.Join(dir, h.file)
	data, err := readOptional(path)
	if err != nil || data == nil {
		return nil, err
	}
	ls := lines(data)
	p, pv := findKey(ls, 0, len(ls), 0, "plugins")
	if p < 0 || pv != "" {
		return nil, nil
	}
	end := yamlBlock(ls, p)
	changed := false
	for i := p + 1; i < end; i++ {
		m := yamlKey().FindStringSubmatch(ls[i])
		if m == nil || m[2] != "enabled" {
			continue
		}
		if m[3] != "" {
			if nv, ok := h.flow(m[3], false); ok && nv != m[3] {
				ls[i] = m[1] + "enabled: " + nv
				changed = true
			}
			continue
		}
		var kept []string
		left := 0
		j := i + 1
		for ; j < len(ls) && (blankOrComment(ls[j]) || indentOf(ls[j]) > len(m[1]) || (indentOf(ls[j]) == len(m[1]) && strings.HasPrefix(strings.TrimSpace(ls[j]), "-"))); j++ {
			if h.item(ls[j]) {
				changed = true
				continue
			}
			if strings.HasPrefix(strings.TrimSpace(ls[j]), "-") {
				left++
			}
			kept = append(kept, ls[j])
		}
		if changed && left == 0 {
			ls[i] = m[1] + "enabled: []"
		}
		ls = append(ls[:i+1], append(kept, ls[j:]...)...)
		break
	}
	if !changed {
		return nil, nil
	}
	if _, err := writeFile(path, join(ls), 0o644); err != nil {
		return nil, err
	}
	return []string{"disabled " + h.plugin + " in " + path}, nil
}
