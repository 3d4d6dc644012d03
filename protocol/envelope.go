package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Version is the herdr version this build reports in ping and status.
const Version = "0.8.0"

// ProtocolVersion is the socket protocol number shared with Herdr.
const ProtocolVersion = 20

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
func EncodeSuccess(id string, r Result) ([]byte, error) {
	raw, err := MarshalResult(r)
	if err != nil {
		return nil, err
	}
	return json.Marshal(Response{ID: id, Result: raw})
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
