package setup

import (
	"fmt"
	"path/filepath"
	"sync"
)

// hookFile is the hook script asset at rel (without extension).
func hookFile(rel string) asset {
	return asset{rel: rel + scriptExt, body: hookScript, exec: true}
}

// session is a single SessionStart registration reporting the session.
var session = []hookEvent{{Event: "SessionStart", Action: "session"}}

const (
	kimiAsk   = "^AskUserQuestion$"
	kimiOther = "^(?!AskUserQuestion$).*$"
)

// targets is the table, built when first asked: its folders are
// functions made by calls (envOrHome), which a package-level table ran at
// every herdr call's start.
var targets = sync.OnceValue(func() []*Target {
	return []*Target{
		{
			Name: "pi", Wire: "pi", Title: "pi", Version: 8, Agent: "pi", Source: "herdr:pi",
			Reports: "extension: full lifecycle and session path",
			dir:     envOrHome(".pi/agent", "PI_CODING_AGENT_DIR"),
			need:    "extensions",
			files:   []asset{{rel: "extensions/herdr-agent-state.ts", body: piExtension}},
		},
		{
			Name: "omp", Wire: "omp", Title: "oh-my-pi", Version: 8, Agent: "omp", Source: "herdr:omp",
			Reports: "extension: full lifecycle",
			dir:     ompDir,
			need:    "extensions",
			check:   ompCheck,
			files:   []asset{{rel: "extensions/herdr-omp-agent-state.ts", body: piExtension}},
		},
		{
			Name: "claude", Wire: "claude", Title: "Claude Code", Version: 7, Agent: "claude", Source: "herdr:claude",
			Reports: "SessionStart: pane.report_agent_session (id, transcript path, start source; subagents skipped)",
			dir:     envOrHome(".claude", "CLAUDE_CONFIG_DIR"),
			files:   []asset{hookFile("hooks/herdr-agent-state")},
			regs:    []registration{jsonHooks{file: "settings.json", nested: true, shape: groupEntry, events: session}},
			keys:    payloadKeys{id: []string{"session_id"}, path: []string{"transcript_path"}, skip: []string{"agent_id"}},
			mcp:     jsonMCP{file: claudeJSON},
		},
		{
			Name: "codex", Wire: "codex", Title: "Codex", Version: 7, Agent: "codex", Source: "herdr:codex",
			Reports: "SessionStart: pane.report_agent_session (id, transcript path)",
			dir:     envOrHome(".codex", "CODEX_HOME"),
			files:   []asset{hookFile("herdr-agent-state")},
			regs: []registration{
				jsonHooks{file: "hooks.json", nested: true, shape: groupEntry, events: session},
				codexFeatures{file: "config.toml"},
			},
			keys: payloadKeys{id: []string{"session_id"}, path: []string{"transcript_path"}, idEnv: []string{"CODEX_THREAD_ID"}},
			mcp:  tomlMCP{file: "config.toml"},
		},
		{
			Name: "copilot", Wire: "copilot", Title: "GitHub Copilot CLI", Version: 2, Agent: "copilot", Source: "herdr:copilot",
			Reports: "SessionStart: pane.report_agent_session (id)",
			dir:     envOrHome(".copilot", "COPILOT_HOME"),
			files:   []asset{hookFile("hooks/herdr-agent-state")},
			regs:    []registration{jsonHooks{file: "settings.json", nested: true, shape: directEntry, events: session}},
			keys:    payloadKeys{id: []string{"sessionId", "session_id"}, path: []string{"transcriptPath", "transcript_path"}},
		},
		{
			Name: "devin", Wire: "devin", Title: "Devin CLI", Version: 2, Agent: "devin", Source: "herdr:devin",
			Reports: "SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PermissionRequest, Stop: pane.report_agent_session (id)",
			dir:     devinDir,
			files:   []asset{hookFile("herdr-agent-state")},
			regs: []registration{jsonHooks{file: "config.json", nested: true, shape: groupEntry, events: []hookEvent{
				{Event: "SessionStart", Action: "session"}, {Event: "UserPromptSubmit", Action: "session"},
				{Event: "PreToolUse", Action: "session"}, {Event: "PostToolUse", Action: "session"},
				{Event: "PermissionRequest", Action: "session"}, {Event: "Stop", Action: "session"},
			}}},
			keys: payloadKeys{id: []string{"session_id", "sessionId"}, path: []string{"transcript_path"},
				list: []string{"devin", "list", "--format", "json"}, listDirEnv: []string{"DEVIN_PROJECT_DIR"}},
		},
		{
			Name: "droid", Wire: "droid", Title: "Factory Droid", Version: 2, Agent: "droid", Source: "herdr:droid",
			Reports: "SessionStart: pane.report_agent_session (id, transcript path)",
			dir:     envOrHome(".factory"),
			files:   []asset{hookFile("hooks/herdr-agent-state")},
			regs: []registration{
				jsonHooks{file: "settings.json", nested: true, shape: groupEntry, events: session},
				jsonHooks{file: "hooks.json", nested: true, cleanOnly: true},
			},
			keys: payloadKeys{id: []string{"session_id"}, path: []string{"transcript_path"}},
		},
		{
			Name: "kimi", Wire: "kimi", Title: "Kimi Code", Version: 6, Agent: "kimi", Source: "herdr:kimi",
			Reports: "SessionStart: pane.report_agent_session; prompts, tools, permissions, stop: pane.report_agent (working, blocked, idle)",
			dir:     envOrHome(".kimi-code", "KIMI_CODE_HOME"),
			files:   []asset{hookFile("hooks/herdr-agent-state")},
			regs: []registration{kimiHooks{file: "config.toml", events: []hookEvent{
				{Event: "SessionStart", Action: "session"},
				{Event: "UserPromptSubmit", Action: "working"},
				{Event: "PreToolUse", Action: "working", Matcher: kimiOther},
				{Event: "PreToolUse", Action: "blocked", Matcher: kimiAsk},
				{Event: "PostToolUse", Action: "working", Matcher: kimiAsk},
				{Event: "PostToolUseFailure", Action: "working", Matcher: kimiAsk},
				{Event: "SubagentStart", Action: "working"},
				{Event: "PreCompact", Action: "working"},
				{Event: "PermissionRequest", Action: "blocked"},
				{Event: "PermissionResult", Action: "working"},
				{Event: "Stop", Action: "idle"},
				{Event: "Interrupt", Action: "idle"},
			}}},
			keys: payloadKeys{id: []string{"session_id"}},
		},
		{
			Name: "opencode", Wire: "opencode", Title: "OpenCode", Version: 9, Agent: "opencode", Source: "herdr:opencode",
			Reports: "plugin: full lifecycle (pane.report_agent with the session id)",
			dir:     envOrHome(".config/opencode"),
			files:   []asset{{rel: "plugins/herdr-agent-state.js", body: opencodePlugin}},
		},
		{
			Name: "kilo", Wire: "kilo", Title: "Kilo", Version: 4, Agent: "kilo", Source: "herdr:kilo",
			Reports: "plugin: full lifecycle (pane.report_agent with the session id)",
			dir:     envOrHome(".config/kilo"),
			files:   []asset{{rel: "plugin/herdr-agent-state.js", body: opencodePlugin}},
		},
		{
			Name: "hermes", Wire: "hermes", Title: "Hermes Agent", Version: 5, Agent: "hermes", Source: "herdr:hermes",
			Reports: "plugin: pane.report_agent_session on session start and reset",
			dir:     envOrHome(".hermes", "HERMES_HOME"),
			files: []asset{
				{rel: "plugins/herdr-agent-state/__init__.py", body: hermesInit},
				{rel: "plugins/herdr-agent-state/plugin.yaml", body: hermesManifest},
			},
			regs: []registration{hermesConfig{file: "config.yaml", plugin: "herdr-agent-state"}},
		},
		{
			Name: "qodercli", Wire: "qodercli", Title: "Qoder CLI", Version: 2, Agent: "qodercli", Source: "herdr:qodercli",
			Reports: "SessionStart: pane.report_agent_session (id, transcript path)",
			dir:     envOrHome(".qoder", "QODER_CONFIG_DIR"),
			files:   []asset{hookFile("hooks/herdr-agent-state")},
			regs:    []registration{jsonHooks{file: "settings.json", nested: true, shape: groupEntry, events: session}},
			keys:    payloadKeys{id: []string{"session_id"}, path: []string{"transcript_path"}},
		},
		{
			Name: "qwen", Wire: "qwen", Title: "Qwen Code", Version: 1, Agent: "qwen", Source: "herdr:qwen",
			Reports: "SessionStart: pane.report_agent_session (id)",
			dir:     envOrHome(".qwen", "QWEN_HOME"),
			files:   []asset{hookFile("hooks/herdr-agent-state")},
			regs:    []registration{jsonHooks{file: "settings.json", nested: true, shape: msGroupEntry, events: session}},
			keys:    payloadKeys{id: []string{"session_id"}},
		},
		{
			Name: "cursor", Wire: "cursor", Title: "Cursor CLI", Version: 1, Agent: "cursor", Source: "herdr:cursor", command: "cursor-agent",
			Reports: "sessionStart: pane.report_agent_session (conversation id)",
			dir:     envOrHome(".cursor", "CURSOR_CONFIG_DIR"),
			files:   []asset{hookFile("herdr-agent-state")},
			regs: []registration{jsonHooks{file: "hooks.json", nested: true, header: ordered{{"version", 1}}, shape: simpleEntry,
				events: []hookEvent{{Event: "sessionStart", Action: "session"}}}},
			keys: payloadKeys{id: []string{"conversation_id", "conversationId", "session_id", "sessionId"}, path: []string{"transcript_path"}},
		},
		{
			Name: "mastracode", Wire: "mastracode", Title: "Mastra Code", Version: 2, Agent: "mastracode", Source: "herdr:mastracode",
			Reports: "SessionStart: pane.report_agent_session; agent, tool, permission and stop events: pane.report_agent (working, blocked, idle) with the thread id",
			dir:     envOrHome(".mastracode"),
			create:  true,
			files:   []asset{hookFile("hooks/herdr-agent-state")},
			regs: []registration{jsonHooks{file: "hooks.json", shape: mastraEntry, events: []hookEvent{
				{Event: "SessionStart", Action: "session"},
				{Event: "UserPromptSubmit", Action: "working"},
				{Event: "AgentStart", Action: "working"},
				{Event: "PreToolUse", Action: "working"},
				{Event: "PermissionRequest", Action: "blocked"},
				{Event: "PermissionResult", Action: "working"},
				{Event: "SubagentStart", Action: "working"},
				{Event: "SubagentEnd", Action: "working"},
				{Event: "Interrupt", Action: "idle"},
				{Event: "AgentEnd", Action: "idle"},
				{Event: "Stop", Action: "idle"},
			}}},
			keys: payloadKeys{id: []string{"session_id", "thread_id", "threadId"}},
		},
		{
			Name: "antigravity-cli", Wire: "antigravity_cli", Title: "Antigravity CLI", Version: 1, Agent: "agy", Source: "herdr:antigravity_cli",
			Reports: "PreInvocation: pane.report_agent_session (conversation id)",
			dir:     envOrHome(".gemini/config", "ANTIGRAVITY_CLI_CONFIG_DIR"),
			files:   []asset{hookFile("hooks/herdr-agent-state")},
			regs: []registration{jsonHooks{file: "hooks.json", block: "herdr", shape: flatEntry,
				events: []hookEvent{{Event: "PreInvocation", Action: "session"}}}},
			keys:   payloadKeys{id: []string{"conversationId", "conversation_id", "session_id"}, path: []string{"transcriptPath", "transcript_path"}},
			answer: "{}",
		},
		{
			Name: "grok", Wire: "grok", Title: "Grok CLI", Version: 1, Agent: "grok", Source: "herdr:grok",
			Reports: "SessionStart: pane.report_agent_session (id)",
			dir:     envOrHome(".grok", "GROK_HOME", "GROK_CONFIG_DIR"),
			files:   []asset{hookFile("hooks/herdr-agent-state")},
			regs:    []registration{ownedJSON{file: "hooks/herdr.json", shape: bareGroupEntry, events: session}},
			keys:    payloadKeys{id: []string{"session_id", "sessionId"}, idEnv: []string{"GROK_SESSION_ID"}},
		},
	}
})

// ompDir: PI_CODING_AGENT_DIR, else ~/$PI_CONFIG_DIR/agent, else ~/.omp/agent.
func ompDir(e environ) (string, error) {
	if p := e("PI_CODING_AGENT_DIR"); p != "" {
		return e.expand(p)
	}
	h, err := e.home()
	if err != nil {
		return "", err
	}
	if c := e("PI_CONFIG_DIR"); c != "" {
		return filepath.Join(h, c, "agent"), nil
	}
	return filepath.Join(h, ".omp", "agent"), nil
}

// ompCheck refuses an omp install into pi's own agent directory: pi would
// load both extensions.
func ompCheck(e environ, dir string) error {
	pi, err := envOrHome(".pi/agent", "PI_CODING_AGENT_DIR")(e)
	if err == nil && filepath.Clean(pi) == filepath.Clean(dir) {
		return fmt.Errorf("omp agent directory %s is pi's; set PI_CONFIG_DIR (not PI_CODING_AGENT_DIR) for omp", dir)
	}
	return nil
}

// devinDir: $XDG_CONFIG_HOME/devin, else ~/.config/devin.
func devinDir(e environ) (string, error) {
	if x := e("XDG_CONFIG_HOME"); x != "" {
		p, err := e.expand(x)
		return filepath.Join(p, "devin"), err
	}
	return envOrHome(".config/devin")(e)
}
