package saved

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/herdr-go/herdr/protocol"
)

// MaxLabelBytes bounds a label: it is drawn in a sidebar and in messages.
const MaxLabelBytes = 64

// maxFieldBytes bounds a target and a remote binary path.
const maxFieldBytes = 255

// maxIDBytes bounds a machine id.
const maxIDBytes = 64

// CheckID refuses an id that is not 1-64 of A-Z a-z 0-9 _ - starting with
// a letter or digit: an id names the machine in qualified ids
// ("ID/w1:p2") and its ssh socket, so no '/', "..", '%', space or
// control character may pass. Ids made here are m-<8 hex>.
func CheckID(id string) error {
	ok := id != "" && len(id) <= maxIDBytes && !strings.HasPrefix(id, "-") && !strings.HasPrefix(id, "_")
	for _, r := range id {
		ok = ok && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}
	if !ok {
		return fmt.Errorf("invalid machine id %q: use 1-%d of A-Z a-z 0-9 _ -, starting with a letter or digit", protocol.Printable(clipString(id, maxIDBytes)), maxIDBytes)
	}
	return nil
}

// idShaped reports whether s has the shape of the ids made here
// (m-<8 hex>, any case): a label of that shape would read as an id.
func idShaped(s string) bool {
	if len(s) != 10 || !strings.EqualFold(s[:2], "m-") {
		return false
	}
	for _, r := range s[2:] {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}

func clipString(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// Check checks every field of p but its id.
func Check(p Profile) error {
	if err := CheckLabel(p.Label); err != nil {
		return err
	}
	if err := CheckTarget(p.Target); err != nil {
		return err
	}
	if p.RemoteSession != "" && !protocol.ValidSessionName(p.RemoteSession) {
		return fmt.Errorf("invalid remote session name %q: use 1-64 of A-Z a-z 0-9 . _ -", p.RemoteSession)
	}
	return CheckRemoteBin(p.RemoteBin)
}

// CheckLabel refuses an empty, overlong or unprintable label, one that
// looks like a machine id or a qualified id, and "local", which names
// this machine.
func CheckLabel(label string) error {
	switch {
	case strings.TrimSpace(label) == "":
		return fmt.Errorf("a machine label must not be empty")
	case len(label) > MaxLabelBytes:
		return fmt.Errorf("machine label %q is longer than %d bytes", protocol.Printable(label), MaxLabelBytes)
	case !utf8.ValidString(label) || protocol.Printable(label) != label || strings.ContainsFunc(label, unicode.IsControl):
		return fmt.Errorf("machine label %q must be printable text", protocol.Printable(label))
	case strings.EqualFold(label, "local"):
		return fmt.Errorf("machine label %q is reserved for this machine", label)
	case strings.Contains(label, "/"):
		return fmt.Errorf("machine label %q must not contain '/': it separates a machine from an id", label)
	case label != strings.TrimSpace(label):
		return fmt.Errorf("machine label %q must not start or end with a space", label)
	case idShaped(label):
		return fmt.Errorf("machine label %q has the shape of a machine id (m-<8 hex>), which it would be taken for", label)
	}
	return nil
}

// shellSpecial are the characters a POSIX shell gives a meaning: the remote
// command line is read by the far side's shell, and no host name has them.
const shellSpecial = "`~!#$&*()\\|[]{};'\"<>?"

// CheckTarget refuses what ssh would read as an option, what has spaces,
// control or shell characters, and an ssh:// URL that is not
// ssh://[user@]host[:port].
func CheckTarget(target string) error {
	switch {
	case target == "":
		return fmt.Errorf("an ssh target must not be empty")
	case len(target) > maxFieldBytes:
		return fmt.Errorf("ssh target is longer than %d bytes", maxFieldBytes)
	case strings.HasPrefix(target, "-"):
		return fmt.Errorf("ssh target %q cannot start with '-'", protocol.Printable(target))
	case strings.ContainsFunc(target, func(r rune) bool { return r <= ' ' || r == 0x7f || r >= 0x80 && r <= 0x9f }):
		return fmt.Errorf("ssh target %q has spaces or control characters", protocol.Printable(target))
	case strings.ContainsAny(target, shellSpecial):
		return fmt.Errorf("ssh target %q has shell characters", target)
	}
	if strings.Contains(target, "://") {
		_, _, err := parseURL(target)
		return err
	}
	return nil
}

// CheckRemoteBin refuses a remote herdr path the far shell would read as
// more than one word (or as an option).
func CheckRemoteBin(bin string) error {
	switch {
	case bin == "":
		return nil
	case len(bin) > maxFieldBytes:
		return fmt.Errorf("--remote-bin is longer than %d bytes", maxFieldBytes)
	case strings.HasPrefix(bin, "-"):
		return fmt.Errorf("--remote-bin %q cannot start with '-'", protocol.Printable(bin))
	case strings.ContainsFunc(bin, func(r rune) bool { return r <= ' ' || r == 0x7f || r >= 0x80 && r <= 0x9f }),
		strings.ContainsAny(bin, shellSpecial):
		return fmt.Errorf("--remote-bin %q must be a plain path: no spaces, control or shell characters", protocol.Printable(bin))
	}
	return nil
}

// parseURL splits ssh://[user@]host[:port] into a destination and a port ("" for none).
func parseURL(target string) (dest, port string, err error) {
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "ssh" || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", "", fmt.Errorf("ssh target %q: expected ssh://[user@]host[:port]", target)
	}
	if _, set := u.User.Password(); set {
		return "", "", fmt.Errorf("ssh target %q: a password does not belong in a target; authentication stays with OpenSSH", "ssh://"+u.User.Username()+":***@"+u.Host)
	}
	host := u.Hostname()
	if host == "" || strings.HasPrefix(host, "-") {
		return "", "", fmt.Errorf("ssh target %q: expected ssh://[user@]host[:port]", target)
	}
	if port = u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", "", fmt.Errorf("ssh target %q: port %q is not 1-65535", target, port)
		}
	}
	dest = host
	if name := u.User.Username(); name != "" {
		if strings.HasPrefix(name, "-") {
			return "", "", fmt.Errorf("ssh target %q: a user name cannot start with '-'", target)
		}
		dest = name + "@" + dest
	}
	return dest, port, nil
}

// Destination turns a checked target into ssh's options before "--" (a
// port from the URL form) and its destination.
func Destination(target string) (opts []string, dest string, err error) {
	if err := CheckTarget(target); err != nil {
		return nil, "", err
	}
	if !strings.Contains(target, "://") {
		return nil, target, nil
	}
	dest, port, err := parseURL(target)
	if err != nil {
		return nil, "", err
	}
	if port != "" {
		opts = []string{"-p", port}
	}
	return opts, dest, nil
}
