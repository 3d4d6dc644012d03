package protocol

import (
	"strconv"
	"strings"
)

// idAlphabet is the bijective base-32 alphabet of public ids (no I, L, O, U).
const idAlphabet = "123456789ABCDEFGHJKMNPQRSTVWXYZ0"

// EncodeNumber renders n ≥ 1 in bijective base 32: 1→"1", 32→"0", 33→"11".
func EncodeNumber(n uint64) string {
	if n == 0 {
		return ""
	}
	var buf [16]byte
	i := len(buf)
	for n > 0 {
		n--
		i--
		buf[i] = idAlphabet[n%32]
		n /= 32
	}
	return string(buf[i:])
}

// DecodeNumber parses a bijective base-32 number; ok is false for anything else.
func DecodeNumber(s string) (uint64, bool) {
	if s == "" || len(s) > 12 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(idAlphabet, s[i])
		if d < 0 {
			return 0, false
		}
		n = n*32 + uint64(d) + 1
	}
	return n, true
}

// WorkspaceID is the public id of the n-th workspace: "w1", "wA", …
func WorkspaceID(n uint64) string { return "w" + EncodeNumber(n) }

// TabID is the public id of tab n in a workspace: "w1:t1".
func TabID(ws string, n uint64) string { return ws + ":t" + EncodeNumber(n) }

// PaneID is the public id of pane n in a workspace: "w1:p1".
func PaneID(ws string, n uint64) string { return ws + ":p" + EncodeNumber(n) }

// TerminalID renders a terminal id from a start time in µs and a counter.
func TerminalID(micros int64, counter uint64) string {
	return "term_" + strconv.FormatInt(micros, 16) + strconv.FormatUint(counter, 16)
}

// SplitChildID splits "w1:p3" into ("w1", 'p', "3"); ok is false otherwise.
func SplitChildID(id string) (ws string, kind byte, num string, ok bool) {
	i := strings.LastIndexByte(id, ':')
	if i <= 0 || i+2 > len(id) {
		return "", 0, "", false
	}
	return id[:i], id[i+1], id[i+2:], true
}

// Herdr's legacy id forms, parsed once for the two structures that
// resolve them (the session's model and its published View).

// LegacyWorkspacePos is the 1-based position "N" or "w_N" names.
func LegacyWorkspacePos(id string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "w_"))
	return n, err == nil && n >= 1
}

// CanonicalTabForm turns the legacy "t_w1_N" into "w1:N"; any other id is
// returned as given.
func CanonicalTabForm(id string) string {
	if rest, ok := strings.CutPrefix(id, "t_"); ok {
		if i := strings.LastIndexByte(rest, '_'); i > 0 {
			return rest[:i] + ":" + rest[i+1:]
		}
	}
	return id
}

// SplitLegacyTab splits the legacy tab forms "t_<ws>_N" and "<ws>:N" into
// the workspace and N (decimal, 1-based); ok is false for anything else.
func SplitLegacyTab(id string) (ws string, n uint64, ok bool) {
	num := ""
	if rest, cut := strings.CutPrefix(id, "t_"); cut {
		if i := strings.LastIndexByte(rest, '_'); i > 0 {
			ws, num = rest[:i], rest[i+1:]
		}
	} else if i := strings.LastIndexByte(id, ':'); i > 0 {
		ws, num = id[:i], id[i+1:]
	}
	n, err := strconv.ParseUint(num, 10, 32)
	return ws, n, ws != "" && err == nil && n >= 1
}

// SplitLegacyPane splits the legacy pane forms "w1-N", "p_N" and "p_w1_N"
// into the workspace ("" for "p_N") and N; raw says N may be Herdr's raw
// pane id (the "p_" forms). ok is false for anything else.
func SplitLegacyPane(id string) (ws string, n uint64, raw, ok bool) {
	num := ""
	if rest, cut := strings.CutPrefix(id, "p_"); cut {
		raw = true
		if i := strings.LastIndexByte(rest, '_'); i > 0 {
			ws, num = rest[:i], rest[i+1:]
		} else {
			num = rest
		}
	} else if i := strings.LastIndexByte(id, '-'); i > 0 {
		ws, num = id[:i], id[i+1:]
	} else {
		return "", 0, false, false
	}
	n, err := strconv.ParseUint(num, 10, 64)
	return ws, n, raw, err == nil && n != 0
}
