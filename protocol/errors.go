package protocol

import (
	"errors"
	"fmt"
)

// Error codes written on the wire. The schema leaves codes open; these are
// the ones Herdr emits that this server uses.
const (
	CodeInvalidRequest    = "invalid_request"
	CodeInvalidParams     = "invalid_params"
	CodeUnknownMethod     = "unknown_method"
	CodeNotImplemented    = "not_implemented"
	CodeNotSupported      = "not_supported"
	CodeHandoffFailed     = "handoff_failed"
	CodeInternal          = "internal_error"
	CodeTimeout           = "timeout"
	CodeServerUnavailable = "server_unavailable"
	CodeWorkspaceNotFound = "workspace_not_found"
	CodeTabNotFound       = "tab_not_found"
	CodePaneNotFound      = "pane_not_found"
	CodeNoActiveWorkspace = "no_active_workspace"
	CodeNoActivePane      = "no_active_pane"
	CodeInvalidKey        = "invalid_key"
	CodeInvalidEnv        = "invalid_env"
	CodeInvalidRegex      = "invalid_regex"
	CodeInvalidRatio      = "invalid_ratio"
	CodePaneSplitFailed   = "pane_split_failed"
	CodePaneSendFailed    = "pane_send_failed"
	CodeWorkspaceCreate   = "workspace_create_failed"
	CodeTabCreateFailed   = "tab_create_failed"
	// CodeStaleContentRevision: a copy-mode call named a content revision
	// the pane's text has moved on from (copy.go).
	CodeStaleContentRevision = "stale_content"
	// Herdr 0.9's refusals: client_shell.surface.set from a connection
	// that is no client shell; a dismissal of release notes or an
	// announcement the server does not hold (any more).
	CodeConnectionLocalOnly = "connection_local_only"
	CodeStaleReleaseNotes   = "stale_release_notes"
	CodeStaleAnnouncement   = "stale_announcement"
	// server.ssh_agent.register (Herdr 0.9.2): a path that is no agent
	// socket of this user; a socket that cannot be used (gone, or a
	// platform without the registration).
	CodeInvalidSSHAgent     = "invalid_ssh_agent"
	CodeSSHAgentUnavailable = "ssh_agent_unavailable"

	// CLI-side codes.
	CodeServerNotRunning   = "server_not_running"
	CodeProtocolMismatch   = "protocol_mismatch"
	CodeInvalidSessionName = "invalid_session_name"
	CodeUnsafeSocket       = "unsafe_socket"
)

// Error is an API error with a wire code. Handlers return it; the gateway
// turns it into an error response with the request's id.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf builds an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AsError returns err as an *Error, wrapping foreign errors as internal_error.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if err == nil {
		return &Error{Code: CodeInternal, Message: "unknown error"}
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}

// ParamError reports a bad or missing params field.
func ParamError(field, format string, args ...any) *Error {
	return &Error{Code: CodeInvalidParams, Message: "invalid params: " + field + ": " + fmt.Sprintf(format, args...)}
}
