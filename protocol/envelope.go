package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Version is the Herdr version whose wire this server implements, what
// ping and status report: clients and plugins written for Herdr gate on
// it (min_herdr_version). The project's own build is Build.
const Version = "0.9.5"

// ProtocolVersion is the socket protocol number shared with Herdr (0.9
// speaks 22). 22 only adds to 20: every protocol-20 request is still valid.
const ProtocolVersion = 22

// MaxLineBytes caps one request line; longer lines are answered with an error.
const MaxLineBytes = 1 << 20

// Request is one line sent by a client.
type Request struct {
	ID     string          `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// ErrorBody is the payload of an error response.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Response is one line written by the server: exactly one of Result or Error is set.
type Response struct {
	ID     string          `json:"id"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *ErrorBody      `json:"error,omitempty"`
}

// Result is implemented by every success result; ResultType is the wire
// discriminator written as "type".
type Result interface {
	ResultType() string
}

// MarshalResult encodes r as a JSON object whose first member is "type".
func MarshalResult(r Result) (json.RawMessage, error) {
	body, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode %s result: %w", r.ResultType(), err)
	}
	return withType(r.ResultType(), body), nil
}

// withType prefixes an encoded JSON object with a "type" member.
func withType(typ string, body []byte) json.RawMessage {
	var b bytes.Buffer
	b.Grow(len(body) + len(typ) + 12)
	b.WriteString(`{"type":`)
	t, _ := json.Marshal(typ)
	b.Write(t)
	if len(body) > 2 { // not "{}"
		b.WriteByte(',')
		b.Write(body[1:])
	} else {
		b.WriteByte('}')
	}
	return b.Bytes()
}

// EncodeSuccess renders a success response line (without the newline).
// The envelope is written around the result by hand: encoding it as a
// Response would make encoding/json validate and copy the whole result a
// second time (a json.RawMessage field is compacted), a quarter of the
// cost of a 200-pane pane.list. The bytes are the same.
func EncodeSuccess(id string, r Result) ([]byte, error) {
	var body []byte
	if e, ok := r.(Encoded); ok {
		body = e.JSON
	} else {
		var err error
		if body, err = json.Marshal(r); err != nil {
			return nil, fmt.Errorf("encode %s result: %w", r.ResultType(), err)
		}
	}
	quotedID, _ := json.Marshal(id)
	typ, _ := json.Marshal(r.ResultType())
	b := make([]byte, 0, len(body)+len(quotedID)+len(typ)+24)
	b = append(append(append(b, `{"id":`...), quotedID...), `,"result":{"type":`...)
	b = append(b, typ...)
	if len(body) > 2 { // not "{}"
		b = append(append(b, ','), body[1:]...)
	} else {
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// Encoded is a result encoded once and sent many times (ping's pong is the
// same for a server's whole life): JSON is its object without the type.
type Encoded struct {
	Type string
	JSON []byte
}

// ResultType implements Result.
func (e Encoded) ResultType() string { return e.Type }

// Encode encodes r once for sending many times.
func Encode(r Result) (Encoded, error) {
	b, err := json.Marshal(r)
	return Encoded{Type: r.ResultType(), JSON: b}, err
}

// EncodeError renders an error response line (without the newline). It never fails.
func EncodeError(id string, err error) []byte {
	e := AsError(err)
	line, mErr := json.Marshal(Response{ID: id, Error: &ErrorBody{Code: e.Code, Message: e.Message}})
	if mErr != nil {
		return []byte(`{"id":"","error":{"code":"internal_error","message":"encode error"}}`)
	}
	return line
}

// DecodeRequest parses one request line. Errors are invalid_request, as
// Herdr's strict envelope gives them: the line must be UTF-8, "id" and
// "method" must be strings, and none of id, method and params may appear
// twice (encoding/json would silently keep the last, so
// "method":"ping","method":"workspace.close" would run the second). Keys
// match exactly; other keys are ignored. The returned Request carries the
// id whenever it could be read, so the error answer can echo it. Params
// aliases line.
func DecodeRequest(line []byte) (Request, error) {
	if !utf8.Valid(line) {
		return Request{ID: LeadingID(line)}, Errorf(CodeInvalidRequest, "invalid request: not valid UTF-8")
	}
	if !json.Valid(line) {
		var req Request // only for encoding/json's description of the fault
		err := Unmarshal(line, &req)
		if err == nil {
			err = fmt.Errorf("invalid JSON")
		}
		return Request{ID: LeadingID(line)}, Errorf(CodeInvalidRequest, "invalid request: %v", err)
	}
	env, ok := scanEnvelope(line)
	if !ok {
		return Request{}, Errorf(CodeInvalidRequest, "invalid request: expected a JSON object")
	}
	var req Request
	idErr := envelopeString(env.id, "id", &req.ID)
	if idErr != nil || env.dup == "id" {
		req.ID = ""
	}
	switch {
	case env.dup != "":
		return req, Errorf(CodeInvalidRequest, "invalid request: duplicate field `%s`", env.dup)
	case idErr != nil:
		return req, idErr
	}
	if err := envelopeString(env.method, "method", &req.Method); err != nil {
		return req, err
	}
	if req.Method == "" {
		return req, Errorf(CodeInvalidRequest, "invalid request: missing field `method`")
	}
	req.Params = env.params
	return req, nil
}

// envelope holds the raw values of a request's top-level members.
type envelope struct {
	id, method, params []byte
	dup                string // the first of id, method, params seen twice
}

// scanEnvelope splits a valid JSON line into its top-level members, one
// pass that looks into nothing but the top level. ok is false when the
// line is not an object.
func scanEnvelope(line []byte) (env envelope, ok bool) {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return env, false
	}
	i++
	for {
		i = skipSpace(line, i)
		if line[i] == '}' {
			return env, true
		}
		if line[i] == ',' {
			i = skipSpace(line, i+1)
		}
		end := stringEnd(line, i)
		key := line[i+1 : end-1]
		i = skipSpace(line, skipSpace(line, end)+1) // past the colon
		start := i
		i = valueEnd(line, i)
		if bytes.IndexByte(key, '\\') >= 0 { // "\u0069d" is "id"
			var k string
			if Unmarshal(line[end-len(key)-2:end], &k) != nil {
				continue
			}
			key = []byte(k)
		}
		var slot *[]byte
		var name string
		switch string(key) {
		case "id":
			slot, name = &env.id, "id"
		case "method":
			slot, name = &env.method, "method"
		case "params":
			slot, name = &env.params, "params"
		default:
			continue
		}
		if *slot != nil && env.dup == "" {
			env.dup = name
		}
		*slot = line[start:i]
	}
}

// envelopeString decodes a string member; absent or not a string is an error.
func envelopeString(raw []byte, field string, dst *string) error {
	if raw == nil {
		return Errorf(CodeInvalidRequest, "invalid request: missing field `%s`", field)
	}
	if raw[0] != '"' {
		return Errorf(CodeInvalidRequest, "invalid request: field `%s` must be a string", field)
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		*dst = string(raw[1 : len(raw)-1])
		return nil
	}
	if err := Unmarshal(raw, dst); err != nil {
		return Errorf(CodeInvalidRequest, "invalid request: field `%s`: %v", field, err)
	}
	return nil
}

// The scanners below assume valid JSON (json.Valid ran first).

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string that opens at b[i].
func stringEnd(b []byte, i int) int {
	i++
	for {
		q := bytes.IndexByte(b[i:], '"') + i
		// The quote ends the string unless an odd run of backslashes escapes it.
		n := 0
		for n < q-i && b[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
}

// valueEnd returns the index just past the value that starts at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for {
			switch b[i] {
			case '"':
				i = stringEnd(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}

// LeadingID is the id of a request line that cannot be decoded whole (not
// JSON, cut short, too long) when the line begins with it, `{"id":"…"`:
// Herdr answers such a line with the id it could read, so a client that
// matches answers by id still finds its error. "" when there is none.
func LeadingID(line []byte) string {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return ""
	}
	i = skipSpace(line, i+1)
	if !bytes.HasPrefix(line[i:], []byte(`"id"`)) {
		return ""
	}
	i = skipSpace(line, i+4)
	if i >= len(line) || line[i] != ':' {
		return ""
	}
	i = skipSpace(line, i+1)
	if i >= len(line) || line[i] != '"' {
		return ""
	}
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++ // the escaped byte
		case '"':
			var id string
			if !utf8.Valid(line[i:j+1]) || Unmarshal(line[i:j+1], &id) != nil {
				return ""
			}
			return id
		}
	}
	return ""
}
