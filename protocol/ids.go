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
