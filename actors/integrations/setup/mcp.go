package setup

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/herdr-go/herdr/protocol"
	"github.com/pelletier/go-toml/v2"
)

// mcpServerName is the name herdr's MCP server is registered under.
const mcpServerName = "herdr"

// mcpServer registers `herdr mcp` in an agent's MCP settings, beside its
// hooks: merged with the user's servers, removed on uninstall.
type mcpServer interface {
	install(e environ, dir string) ([]string, error)
	uninstall(e environ, dir string) ([]string, error)
}

// mcpCommand is the program the agent launches: the herdr herdr's panes
// are given (HERDR_BIN_PATH) when it is an absolute path, else herdr
// from PATH.
func mcpCommand(e environ) string {
	if p := e("HERDR_BIN_PATH"); filepath.IsAbs(p) {
		return p
	}
	return "herdr"
}

// oursMCP reports whether a settings entry runs `<herdr> mcp`.
func oursMCP(command string, args []string) bool {
	base := strings.TrimSuffix(filepath.Base(command), ".exe")
	return (base == "herdr" || base == "herdr-full") && len(args) > 0 && args[0] == "mcp"
}

// jsonMCP is a JSON settings file's "mcpServers" object (Claude Code's
// ~/.claude.json, where `claude mcp add --scope user` writes).
type jsonMCP struct {
	file func(e environ, dir string) (string, error)
}

// claudeJSON is Claude Code's user settings: .claude.json in
// CLAUDE_CONFIG_DIR when that is set, else in the home folder.
func claudeJSON(e environ, dir string) (string, error) {
	if e("CLAUDE_CONFIG_DIR") != "" {
		return filepath.Join(dir, ".claude.json"), nil
	}
	h, err := e.home()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, ".claude.json"), nil
}

// servers reads the file's mcpServers; herdr's entry, when there is one,
// must be herdr's own.
func (j jsonMCP) servers(path string) (root, servers *object, err error) {
	data, err := readOptional(path)
	if err != nil {
		return nil, nil, err
	}
	if root, err = parseObject(data); err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if servers, err = root.child("mcpServers", path); err != nil {
		return nil, nil, err
	}
	return root, servers, nil
}

func (jsonMCP) entryIsOurs(servers *object) (present, ours bool) {
	raw, ok := servers.vals[mcpServerName]
	if !ok {
		return false, false
	}
	var e struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	return true, protocol.Unmarshal(raw, &e) == nil && oursMCP(e.Command, e.Args)
}

func (j jsonMCP) install(e environ, dir string) ([]string, error) {
	path, err := j.file(e, dir)
	if err != nil {
		return nil, err
	}
	root, servers, err := j.servers(path)
	if err != nil {
		return nil, err
	}
	if present, ours := j.entryIsOurs(servers); present && !ours {
		return nil, fmt.Errorf("%s: mcpServers.%s is another program, not herdr mcp; herdr leaves it alone: rename or remove it", path, mcpServerName)
	}
	entry := ordered{{"type", "stdio"}, {"command", mcpCommand(e)}, {"args", []string{"mcp"}}}
	if err := servers.set(mcpServerName, entry); err != nil {
		return nil, err
	}
	out, err := withServers(root, servers)
	if err != nil {
		return nil, err
	}
	return registered(path, out, 0o600)
}

func (j jsonMCP) uninstall(e environ, dir string) ([]string, error) {
	path, err := j.file(e, dir)
	if err != nil {
		return nil, err
	}
	root, servers, err := j.servers(path)
	if err != nil {
		return nil, err
	}
	if _, ours := j.entryIsOurs(servers); !ours {
		return nil, nil
	}
	servers.del(mcpServerName)
	out, err := withServers(root, servers)
	if err != nil {
		return nil, err
	}
	if _, err := writeFile(path, out, 0o600); err != nil {
		return nil, err
	}
	return []string{"removed the herdr MCP server from " + path}, nil
}

// withServers renders a JSON settings file with its mcpServers replaced.
func withServers(root, servers *object) ([]byte, error) {
	if err := root.set("mcpServers", servers); err != nil {
		return nil, err
	}
	return render(root)
}

// registered writes settings that register herdr's MCP server and says
// what it did.
func registered(path string, out []byte, perm os.FileMode) ([]string, error) {
	wrote, err := writeFile(path, out, perm)
	if err != nil {
		return nil, err
	}
	if !wrote {
		return []string{"MCP server already registered in " + path}, nil
	}
	return []string{"registered the herdr MCP server (herdr mcp) in " + path}, nil
}

// Codex's MCP server block in config.toml.
const (
	codexMCPBegin = "# >>> herdr mcp server"
	codexMCPEnd   = "# <<< herdr mcp server"
)

// tomlMCP is Codex's [mcp_servers.herdr] table, kept in a herdr-managed
// block at the end of config.toml so the user's lines stay as they are.
type tomlMCP struct{ file string }

func (c tomlMCP) install(e environ, dir string) ([]string, error) {
	path := filepath.Join(dir, c.file)
	data, err := readOptional(path)
	if err != nil {
		return nil, err
	}
	if _, err := parseTOML(path, data); err != nil {
		return nil, err
	}
	ls, _ := withoutBlock(lines(data), codexMCPBegin, codexMCPEnd)
	block, err := toml.Marshal(map[string]any{"mcp_servers": map[string]any{mcpServerName: map[string]any{"command": mcpCommand(e), "args": []string{"mcp"}}}})
	if err != nil {
		return nil, err
	}
	if len(ls) > 0 {
		ls = append(ls, "")
	}
	ls = append(ls, codexMCPBegin)
	ls = append(ls, lines(bytes.TrimSpace(block))...)
	ls = append(ls, codexMCPEnd)
	out := join(ls)
	if _, err := parseTOML(path, out); err != nil {
		return nil, fmt.Errorf("herdr's MCP server would break %s (is there an [mcp_servers.%s] already?): %w", path, mcpServerName, err)
	}
	return registered(path, out, 0o644)
}

func (c tomlMCP) uninstall(_ environ, dir string) ([]string, error) {
	path := filepath.Join(dir, c.file)
	data, err := readOptional(path)
	if err != nil || data == nil {
		return nil, err
	}
	ls, found := withoutBlock(lines(data), codexMCPBegin, codexMCPEnd)
	if !found {
		return nil, nil
	}
	if _, err := writeFile(path, join(ls), 0o644); err != nil {
		return nil, err
	}
	return []string{"removed the herdr MCP server from " + path}, nil
}
