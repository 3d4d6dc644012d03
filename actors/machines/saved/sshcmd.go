package saved

import (
	"fmt"
	"strings"
)

// SplitWords splits an ssh command such as `ssh -F "/my dir/config"` into
// words as a POSIX shell would, without running one: blanks separate,
// single quotes keep everything, double quotes keep all but \" and \\,
// a backslash outside quotes escapes the next character. Nothing is
// expanded.
func SplitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated double quote in %q", s)
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("trailing backslash in %q", s)
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// SSHCommand is the ssh program and its leading arguments: envValue
// ($HERDR_SSH_COMMAND) when set, else configValue ([remote] ssh_command),
// else plain "ssh" from PATH.
func SSHCommand(envValue, configValue string) ([]string, error) {
	for _, v := range []string{envValue, configValue} {
		if strings.TrimSpace(v) == "" {
			continue
		}
		words, err := SplitWords(v)
		if err != nil {
			return nil, fmt.Errorf("ssh command: %w", err)
		}
		return words, nil
	}
	return []string{"ssh"}, nil
}

// Command spells the whole ssh command line that runs remote (already
// one command line for the far shell, made of checked words) on target:
// the ssh command, extra options, "-T", the URL form's port, then "--"
// so that nothing the user gave is read as an option, the destination
// and remote.
func Command(ssh []string, extra []string, target, remote string) ([]string, error) {
	opts, dest, err := Destination(target)
	if err != nil {
		return nil, err
	}
	argv := append([]string{}, ssh...)
	argv = append(argv, extra...)
	argv = append(argv, "-T")
	argv = append(argv, opts...)
	return append(argv, "--", dest, remote), nil
}

// RemoteBridge is the far command line that joins a connection to the
// API socket of session (the default when "") through herdr at bin
// (herdr on the remote PATH when "").
func RemoteBridge(bin, session string) string {
	if bin == "" {
		bin = "herdr"
	}
	words := []string{bin}
	if session != "" {
		words = append(words, "--session="+session)
	}
	return strings.Join(append(words, "remote-client-bridge"), " ")
}
