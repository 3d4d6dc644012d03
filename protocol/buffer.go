package protocol

import (
	"strings"
	"unicode/utf8"
)

// Paste buffers (issue 46; an extension, like tmux's): the server keeps a
// bounded list of texts, newest first. The client's yank in copy mode adds
// one; buffer.paste types one into a pane as a paste. A buffer set without
// a name is named buffer<N>, N counting up for the server's life and never
// reused (so a name keeps meaning the same text while newer ones arrive);
// setting a name that exists replaces its text and makes it the newest.
// Past BufferMaxCount the oldest is dropped. Buffers live as long as the
// server: they are not saved.

var bufferMethods = []Method{
	{Name: "buffer.list", Access: AccessRead, Extension: true, CLI: "buffer list", Params: empty, Result: "buffer_list", Summary: "The paste buffers, newest first, without their text (extension)", Owner: OwnerBuffers, Shape: ShapeAnswer},
	{Name: "buffer.get", Access: AccessRead, Extension: true, Params: func() Params { return &BufferGetParams{} }, Result: "buffer_info", Summary: "One paste buffer with its text; the newest when none is named (extension)", Owner: OwnerBuffers, Shape: ShapeAnswer},
	{Name: "buffer.set", Extension: true, Params: func() Params { return &BufferSetParams{} }, Result: "buffer_info", Summary: "Keep a text as the newest paste buffer, named or numbered (extension)", Owner: OwnerBuffers, Shape: ShapeAnswer},
	{Name: "buffer.delete", Extension: true, CLI: "buffer delete", CLIHelp: "; prints nothing on success.", Params: func() Params { return &BufferDeleteParams{} }, Result: "ok", Summary: "Delete a paste buffer (extension)", Owner: OwnerBuffers, Shape: ShapeAnswer},
	{Name: "buffer.paste", Extension: true, Params: func() Params { return &BufferPasteParams{} }, Result: "ok", Summary: "Type a paste buffer into a pane, bracketed when its program asked; the newest when none is named (extension)", Owner: OwnerBuffers, Shape: ShapeAnswer},
}

// Bounds of the paste buffers. A buffer's text fits a request line with
// room for JSON's escapes (MaxLineBytes), so what buffer.get answers can
// always be set again.
const (
	BufferMaxCount     = 50
	BufferMaxBytes     = 512 << 10
	BufferMaxNameBytes = 64
	// BufferPreviewRunes is how much of a buffer's text buffer.list shows.
	BufferPreviewRunes = 40
)

// CodeBufferNotFound: no buffer has that name (or there is none at all).
const CodeBufferNotFound = "buffer_not_found"

// BufferGetParams are the params of buffer.get: the buffer's name (""
// the newest).
type BufferGetParams struct {
	Buffer string `json:"buffer,omitempty"`
}

// Validate implements Params.
func (p *BufferGetParams) Validate() error { return nil }

// BufferDeleteParams are the params of buffer.delete.
type BufferDeleteParams struct {
	Buffer string `json:"buffer" cli:"<buffer>"`
}

// Validate implements Params.
func (p *BufferDeleteParams) Validate() error { return required("buffer", p.Buffer) }

// BufferSetParams are the params of buffer.set.
type BufferSetParams struct {
	Text string `json:"text"`
	// Name, when set, names the buffer (replacing one of that name).
	Name string `json:"name,omitempty"`
}

// Validate implements Params.
func (p *BufferSetParams) Validate() error {
	if p.Text == "" {
		return ParamError("text", "missing required field (a buffer is never empty)")
	}
	if len(p.Text) > BufferMaxBytes {
		return ParamError("text", "%d bytes, more than a buffer holds (%d)", len(p.Text), BufferMaxBytes)
	}
	if p.Name != "" {
		return ValidBufferName(p.Name)
	}
	return nil
}

// ValidBufferName refuses a name a list could not show on one line or a
// shell could not pass as one word without quoting.
func ValidBufferName(name string) error {
	if len(name) > BufferMaxNameBytes {
		return ParamError("name", "longer than %d bytes", BufferMaxNameBytes)
	}
	if !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r >= 0x7f && r <= 0x9f }) {
		return ParamError("name", "%q has a space, a control character or invalid UTF-8", name)
	}
	return nil
}

// BufferPasteParams are the params of buffer.paste.
type BufferPasteParams struct {
	PaneID string `json:"pane_id"`
	// Buffer names the buffer; "" is the newest.
	Buffer string `json:"buffer,omitempty"`
}

// Validate implements Params.
func (p *BufferPasteParams) Validate() error { return required("pane_id", p.PaneID) }

// BufferInfo describes one buffer. Text is set by buffer.get only.
type BufferInfo struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
	// Created is when the text was set, in Unix milliseconds.
	Created int64 `json:"created"`
	// Preview is the text's start on one line (buffer.list).
	Preview string `json:"preview,omitempty"`
	Text    string `json:"text,omitempty"`
}

// BufferList answers buffer.list.
type BufferList struct {
	Buffers []BufferInfo `json:"buffers"`
}

func (BufferList) ResultType() string { return "buffer_list" }

// BufferInfoResult answers buffer.get and buffer.set.
type BufferInfoResult struct {
	Buffer BufferInfo `json:"buffer"`
}

func (BufferInfoResult) ResultType() string { return "buffer_info" }

// BufferPreview is text's start as one printable line: controls and line
// ends become spaces, at most BufferPreviewRunes runes.
func BufferPreview(text string) string {
	var b strings.Builder
	n := 0
	for _, r := range text {
		if n == BufferPreviewRunes {
			b.WriteString("…")
			break
		}
		if r == utf8.RuneError || isControl(r) {
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// PastedText is a buffer's text as buffer.paste types it. A paste is the
// person's own text, so it goes as it is (like pane.send_text), except
// for the bracketed-paste markers: an end marker inside the text would
// end the paste early and hand the rest to the program as typed keys.
func PastedText(text string) string {
	// Again until none is left: dropping one may join the halves of another.
	for {
		before := text
		for _, m := range pasteMarkers {
			text = strings.ReplaceAll(text, m, "")
		}
		if text == before {
			return text
		}
	}
}
