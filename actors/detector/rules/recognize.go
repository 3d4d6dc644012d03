package rules

import (
	"strings"
)

// Process describes one process of a PTY's foreground process group, as read
// from /proc by the caller.
type Process struct {
	PID    int
	Argv   []string
	Env    map[string]string // may be nil
	Leader bool              // true for the process group leader
}

// EnvAgentHint is the environment variable that forces a process's agent.
const EnvAgentHint = "HERDR_AGENT"

// knownAgents lists the plain agent ids recognised by name.
var knownAgents = map[string]bool{
	"pi": true, "omp": true, "claude": true, "codex": true, "gemini": true,
	"cursor": true, "devin": true, "agy": true, "cline": true, "mastracode": true,
	"opencode": true, "copilot": true, "kimi": true, "kiro": true, "droid": true,
	"amp": true, "grok": true, "hermes": true, "kilo": true, "qodercli": true,
	"maki": true, "qwen": true,
}

// aliases maps alternative executable names and labels to agent ids,
// Herdr's table: the spelled-out forms with a space are how some installers
// name the app process (macOS "Kimi Code").
var aliases = map[string]string{
	"claude-code":     "claude",
	"cursor-agent":    "cursor",
	"devin-cli":       "devin",
	"devin cli":       "devin",
	"antigravity":     "agy",
	"antigravity-cli": "agy",
	"mastra-code":     "mastracode",
	"mastra code":     "mastracode",
	"opencode2":       "opencode",
	"open-code":       "opencode",
	"github-copilot":  "copilot",
	"ghcs":            "copilot",
	"kimi-code":       "kimi",
	"kimi code":       "kimi",
	"kiro-cli":        "kiro",
	"amp-local":       "amp",
	"grok-build":      "grok",
	"hermes-agent":    "hermes",
	"kilo-code":       "kilo",
	"kilo code":       "kilo",
	"qoder":           "qodercli",
	"qoderclicn":      "qodercli",
	"qodercn":         "qodercli",
	"qwen-code":       "qwen",
	"qwen code":       "qwen",
}

// npmPackages maps npm package directory names to the agent they install.
var npmPackages = map[string]string{
	"@anthropic-ai/claude-code":       "claude",
	"claude-code":                     "claude",
	"@openai/codex":                   "codex",
	"opencode-ai":                     "opencode",
	"@google/gemini-cli":              "gemini",
	"@github/copilot":                 "copilot",
	"@sourcegraph/amp":                "amp",
	"@mariozechner/pi-coding-agent":   "pi",
	"@earendil-works/pi-coding-agent": "pi",
	"mastracode":                      "mastracode",
	"@qwen-code/qwen-code":            "qwen",
}

// runtimes are interpreters and shells looked through to their script.
var runtimes = map[string]bool{
	"node": true, "nodejs": true, "bun": true, "deno": true,
	"sh": true, "bash": true, "zsh": true, "fish": true, "dash": true,
	"tmux": true, "cmd": true, "powershell": true, "pwsh": true,
	"python": true, "python3": true,
}

// evalFlags end the look-through: the code that follows is inline, not a file.
var evalFlags = map[string]bool{
	"-e": true, "-c": true, "-m": true, "-p": true,
	"--eval": true, "--print": true, "-command": true, "/c": true,
}

// runtimeSubcommands are words a runtime takes before the script it runs.
var runtimeSubcommands = map[string]bool{"run": true, "x": true, "exec": true}

// Canonical maps an agent label or alias to its agent id; an unknown label is
// returned lowercased and trimmed.
func Canonical(label string) string {
	l := strings.ToLower(strings.TrimSpace(label))
	if id, ok := aliases[l]; ok {
		return id
	}
	return l
}

// Recognize returns the agent running in a foreground process group. A
// HERDR_AGENT hint forces an agent; the group leader's answer wins, then the
// first hinted process, then the first process recognised by name.
func Recognize(procs []Process) (agent string, ok bool) {
	firstHint, firstName := "", ""
	for _, p := range procs {
		hint := hintOf(p)
		name := ""
		if hint == "" {
			name, _ = recognizeArgv(p.Argv)
		}
		if p.Leader && (hint != "" || name != "") {
			return hint + name, true
		}
		if hint != "" && firstHint == "" {
			firstHint = hint
		}
		if name != "" && firstName == "" {
			firstName = name
		}
	}
	if firstHint != "" {
		return firstHint, true
	}
	if firstName != "" {
		return firstName, true
	}
	return "", false
}

// hintOf returns the canonical agent named by a process's HERDR_AGENT.
func hintOf(p Process) string {
	if p.Env == nil {
		return ""
	}
	return Canonical(p.Env[EnvAgentHint])
}

// recognizeArgv recognises an agent from one command line.
func recognizeArgv(argv []string) (string, bool) {
	if len(argv) == 0 {
		return "", false
	}
	if id, ok := agentFromPath(argv[0]); ok {
		return id, true
	}
	name := normalizeName(argv[0])
	if !isRuntime(name) {
		return "", false
	}
	for _, arg := range argv[1:] {
		a := strings.ToLower(arg)
		if evalFlags[a] {
			return "", false
		}
		if strings.HasPrefix(a, "-") || runtimeSubcommands[a] {
			continue
		}
		return agentFromPath(arg)
	}
	return "", false
}

// agentFromPath recognises an agent from an executable or script path: an
// npm package directory, else the normalised base name.
func agentFromPath(path string) (string, bool) {
	if id, ok := agentFromNpmPath(path); ok {
		return id, true
	}
	name := Canonical(normalizeName(path))
	if knownAgents[name] {
		return name, true
	}
	return "", false
}

// agentFromNpmPath finds .../node_modules/<pkg>/... and maps <pkg>.
func agentFromNpmPath(path string) (string, bool) {
	p := strings.ToLower(strings.ReplaceAll(path, `\`, "/"))
	found := ""
	// The last node_modules wins: nested installs name the real package.
	for {
		i := strings.Index(p, "node_modules/")
		if i < 0 {
			break
		}
		p = p[i+len("node_modules/"):]
		pkg, rest, _ := strings.Cut(p, "/")
		if strings.HasPrefix(pkg, "@") {
			sub, _, _ := strings.Cut(rest, "/")
			pkg += "/" + sub
		}
		if id, ok := npmPackages[pkg]; ok {
			found = id
		}
	}
	return found, found != ""
}

// normalizeName lowercases, takes the base name and strips a launcher suffix.
func normalizeName(path string) string {
	n := strings.ToLower(path)
	if i := strings.LastIndexAny(n, `/\`); i >= 0 {
		n = n[i+1:]
	}
	for _, suf := range []string{".exe", ".cmd", ".bat", ".ps1", ".js"} {
		if strings.HasSuffix(n, suf) && len(n) > len(suf) {
			return n[:len(n)-len(suf)]
		}
	}
	return n
}

// isRuntime reports whether a normalised name is a runtime or shell,
// including versioned pythons such as python3.12.
func isRuntime(name string) bool {
	if runtimes[name] {
		return true
	}
	v, ok := strings.CutPrefix(name, "python")
	if !ok || v == "" {
		return false
	}
	for _, r := range v {
		if (r < '0' || r > '9') && r != '.' {
			return false
		}
	}
	return true
}
