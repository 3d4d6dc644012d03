package setup

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// scriptBase is the file name every herdr hook script and plugin shares;
// a settings entry whose command mentions it is herdr's (this version's,
// or an older one's at another path) and is replaced on install.
const scriptBase = "herdr-agent-state"

// ours reports whether a registered command runs a herdr hook.
func ours(command string) bool { return strings.Contains(command, scriptBase) }

// hookEvent is one registration: the agent's event, the action the script
// reports for it (session, working, blocked, idle, release) and an optional
// matcher.
type hookEvent struct {
	Event, Action, Matcher string
}

// entryShape builds one settings entry for an event in an agent's format.
type entryShape func(ev hookEvent, command string) any

// groupEntry is the Claude-style entry: a matcher group holding commands.
func groupEntry(ev hookEvent, command string) any {
	m := ev.Matcher
	if m == "" {
		m = "*"
	}
	return ordered{{"matcher", m}, {"hooks", []any{ordered{{"type", "command"}, {"command", command}, {"timeout", 10}}}}}
}

// msGroupEntry is groupEntry for agents that read the timeout in
// milliseconds (Qwen Code, like the Gemini CLI it comes from).
func msGroupEntry(ev hookEvent, command string) any {
	m := ev.Matcher
	if m == "" {
		m = "*"
	}
	return ordered{{"matcher", m}, {"hooks", []any{ordered{{"type", "command"}, {"command", command}, {"timeout", 10000}}}}}
}

// bareGroupEntry is a matcher-less group (grok).
func bareGroupEntry(_ hookEvent, command string) any {
	return ordered{{"hooks", []any{ordered{{"type", "command"}, {"command", command}, {"timeout", 10}}}}}
}

// directEntry is Copilot's entry: the command under the shell's own key.
func directEntry(_ hookEvent, command string) any {
	return ordered{{"type", "command"}, {commandKey, command}, {"timeoutSec", 10}}
}

// simpleEntry is Cursor's entry: just the command.
func simpleEntry(_ hookEvent, command string) any {
	return ordered{{"command", command}}
}

// flatEntry is a handler without a group, timeout in seconds (Antigravity).
func flatEntry(_ hookEvent, command string) any {
	return ordered{{"type", "command"}, {"command", command}, {"timeout", 10}}
}

// mastraEntry is MastraCode's handler: timeout in milliseconds.
func mastraEntry(_ hookEvent, command string) any {
	return ordered{{"type", "command"}, {"command", command}, {"timeout", 10000}, {"description", "Report agent state to herdr"}}
}

// ordered is a JSON object literal that keeps its members' order.
type ordered []struct {
	k string
	v any
}

// MarshalJSON implements json.Marshaler.
func (o ordered) MarshalJSON() ([]byte, error) {
	obj := newObject()
	for _, m := range o {
		if err := obj.set(m.k, m.v); err != nil {
			return nil, err
		}
	}
	return obj.MarshalJSON()
}

// stripOurs removes herdr's commands from every event of a hooks object:
// entries whose command is ours, and ours inside matcher groups (a group
// left empty goes too, and an event left empty). It reports a change.
func stripOurs(hooks *object, what string) (bool, error) {
	changed := false
	for _, event := range append([]string(nil), hooks.keys...) {
		entries, err := hooks.array(event, what)
		if err != nil {
			return false, err
		}
		kept, dropped, err := stripEntries(entries, what)
		if err != nil {
			return false, err
		}
		if !dropped {
			continue
		}
		changed = true
		if len(kept) == 0 {
			hooks.del(event)
		} else if err := hooks.set(event, kept); err != nil {
			return false, err
		}
	}
	return changed, nil
}

func stripEntries(entries []json.RawMessage, what string) (kept []json.RawMessage, dropped bool, err error) {
	for _, raw := range entries {
		var e object
		if protocol.Unmarshal(raw, &e) != nil {
			kept = append(kept, raw) // not an object: not ours to judge
			continue
		}
		if ours(e.str("command")) || ours(e.str("bash")) || ours(e.str("powershell")) {
			dropped = true
			continue
		}
		if e.has("hooks") {
			inner, err := e.array("hooks", what)
			if err != nil {
				return nil, false, err
			}
			innerKept, innerDropped, err := stripEntries(inner, what)
			if err != nil {
				return nil, false, err
			}
			if innerDropped {
				dropped = true
				if len(innerKept) == 0 {
					continue
				}
				if err := e.set("hooks", innerKept); err != nil {
					return nil, false, err
				}
				if raw, err = e.MarshalJSON(); err != nil {
					return nil, false, err
				}
			}
		}
		kept = append(kept, raw)
	}
	return kept, dropped, nil
}

// jsonHooks registers the hook in a JSON settings file: under its "hooks"
// member (nested), as top-level events, or as one herdr-owned block.
type jsonHooks struct {
	file   string // relative to the config dir
	nested bool   // events live under "hooks"
	block  string // events live under this top-level member, herdr's alone
	header ordered
	shape  entryShape
	events []hookEvent
	// cleanOnly: a file older herdr versions registered in; install only
	// removes herdr's entries from it and never creates it.
	cleanOnly bool
}

func (j jsonHooks) install(dir, script string) ([]string, error) {
	path := filepath.Join(dir, j.file)
	if j.cleanOnly {
		return j.edit(path, nil, false)
	}
	return j.edit(path, func(root, hooks *object) error {
		for _, ev := range j.events {
			entries, err := hooks.array(ev.Event, path)
			if err != nil {
				return err
			}
			raw, err := encode(j.shape(ev, hookCommand(script, ev.Action)))
			if err != nil {
				return err
			}
			if err := hooks.set(ev.Event, append(entries, raw)); err != nil {
				return err
			}
		}
		for _, m := range j.header {
			if !root.has(m.k) {
				if err := root.set(m.k, m.v); err != nil {
					return err
				}
			}
		}
		return nil
	}, true)
}

func (j jsonHooks) uninstall(dir, _ string) ([]string, error) {
	return j.edit(filepath.Join(dir, j.file), nil, false)
}

// edit strips herdr's entries from the file's hooks, runs add (install
// only) and writes the file back when it changed.
func (j jsonHooks) edit(path string, add func(root, hooks *object) error, create bool) ([]string, error) {
	data, err := readOptional(path)
	if err != nil {
		return nil, err
	}
	if data == nil && !create {
		return nil, nil
	}
	root, err := parseObject(data)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	member := ""
	switch {
	case j.block != "":
		member = j.block
	case j.nested:
		member = "hooks"
	}
	hooks := root
	if member != "" {
		if hooks, err = root.child(member, path); err != nil {
			return nil, err
		}
	}
	hadMember := member != "" && root.has(member)
	var changed bool
	if j.block != "" {
		changed, hooks = hadMember, newObject() // herdr's block: rebuilt whole
	} else if changed, err = stripOurs(hooks, path); err != nil {
		return nil, err
	}
	if add != nil {
		if err := add(root, hooks); err != nil {
			return nil, err
		}
	}
	if member != "" {
		switch {
		case hooks.len() > 0:
			if err := root.set(member, hooks); err != nil {
				return nil, err
			}
		case hadMember && changed:
			root.del(member)
		}
	}
	if add == nil && !changed {
		return nil, nil
	}
	out, err := render(root)
	if err != nil {
		return nil, err
	}
	wrote, err := writeFile(path, out, 0o644)
	if err != nil {
		return nil, err
	}
	switch {
	case add == nil:
		return []string{"removed herdr hooks from " + path}, nil
	case wrote:
		return []string{"registered hooks in " + path}, nil
	default:
		return []string{"hooks already registered in " + path}, nil
	}
}

// ownedJSON is a settings file that belongs to herdr alone (grok reads
// every hooks/*.json): written whole, deleted on uninstall.
type ownedJSON struct {
	file   string
	shape  entryShape
	events []hookEvent
}

func (o ownedJSON) install(dir, script string) ([]string, error) {
	hooks := newObject()
	for _, ev := range o.events {
		if err := hooks.set(ev.Event, []any{o.shape(ev, hookCommand(script, ev.Action))}); err != nil {
			return nil, err
		}
	}
	root := newObject()
	if err := root.set("hooks", hooks); err != nil {
		return nil, err
	}
	out, err := render(root)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, o.file)
	if _, err := writeFile(path, out, 0o644); err != nil {
		return nil, err
	}
	return []string{"wrote " + path}, nil
}

func (o ownedJSON) uninstall(dir, _ string) ([]string, error) {
	path := filepath.Join(dir, o.file)
	if removed, err := removeFile(path); err != nil || !removed {
		return nil, err
	}
	return []string{"removed " + path}, nil
}
