package setup

import (
	"encoding/json"
	"fmt"
	"strings"
)

// markers are the two comment lines status reads, behind prefix.
func markers(t *Target, prefix string) string {
	return fmt.Sprintf("%s HERDR_INTEGRATION_ID=%s\n%s HERDR_INTEGRATION_VERSION=%d\n", prefix, t.Name, prefix, t.Version)
}

// literal renders a string or string list as a Python/JS/PowerShell-safe
// JSON literal (never null).
func literal(v any) string {
	if l, ok := v.([]string); ok && l == nil {
		v = []string{}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// powershellScript is the hook script of a hook target on Windows: the
// same report, written to the server's named pipe.
func powershellScript(t *Target) string {
	var b strings.Builder
	b.WriteString(markers(t, "#"))
	fmt.Fprintf(&b, "# herdr hook for %s; written by `herdr integration install %s`, replaced on reinstall.\n", t.Title, t.Name)
	fmt.Fprintf(&b, `param([string]$Action = "session")
$Answer = %s
function Finish { if ($Answer) { Write-Output $Answer }; exit 0 }
if ($env:HERDR_ENV -ne "1" -or -not $env:HERDR_SOCKET_PATH -or -not $env:HERDR_PANE_ID) { Finish }
$ErrorActionPreference = "SilentlyContinue"
$Agent = %s
$Source = %s
$IdKeys = @(%s)
$PathKeys = @(%s)
$IdEnv = @(%s)
$SkipKeys = @(%s)
$payload = $null
try {
  if ([Console]::IsInputRedirected) { $raw = [Console]::In.ReadToEnd(); if ($raw) { $payload = $raw | ConvertFrom-Json } }
} catch { $payload = $null }
function Pick($keys) {
  if ($null -eq $payload) { return $null }
  foreach ($k in $keys) { $v = $payload.$k; if ($v -is [string] -and $v) { return $v } }
  return $null
}
if ($null -ne $payload) { foreach ($k in $SkipKeys) { if ($payload.$k) { Finish } } }
$sessionId = Pick $IdKeys
if (-not $sessionId) { foreach ($n in $IdEnv) { $v = [Environment]::GetEnvironmentVariable($n); if ($v) { $sessionId = $v; break } } }
$sessionPath = Pick $PathKeys
$params = [ordered]@{ pane_id = $env:HERDR_PANE_ID; source = $Source; agent = $Agent; seq = [long]([DateTimeOffset]::UtcNow.ToUnixTimeMilliseconds()) * 1000000 }
if ($Action -eq "release") { $method = "pane.release_agent" } else {
  if ($sessionId) { $params.agent_session_id = $sessionId }
  if ($sessionPath) { $params.agent_session_path = $sessionPath }
  if ($Action -eq "session") {
    if (-not $sessionId -and -not $sessionPath) { Finish }
    $method = "pane.report_agent_session"
    if ($payload -and $payload.hook_event_name -eq "SessionStart" -and $payload.source -is [string] -and $payload.source) { $params.session_start_source = $payload.source }
  } elseif (@("working", "blocked", "idle") -contains $Action) {
    $method = "pane.report_agent"; $params.state = $Action
  } else { Finish }
}
$line = (@{ id = "hook:$Source"; method = $method; params = $params } | ConvertTo-Json -Compress -Depth 5) + "`+"`n"+`"
try {
  $pipe = New-Object System.IO.Pipes.NamedPipeClientStream(".", [System.IO.Path]::GetFullPath($env:HERDR_SOCKET_PATH), [System.IO.Pipes.PipeDirection]::InOut)
  $pipe.Connect(500)
  $bytes = [System.Text.Encoding]::UTF8.GetBytes($line)
  $pipe.Write($bytes, 0, $bytes.Length)
  $pipe.Flush()
  $pipe.Dispose()
} catch {}
Finish
`, literal(t.answer), literal(t.Agent), literal(t.Source), psList(t.keys.id), psList(t.keys.path), psList(t.keys.idEnv), psList(t.keys.skip))
	return b.String()
}

// psList renders a PowerShell array body: "a", "b".
func psList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = literal(s)
	}
	return strings.Join(q, ", ")
}
