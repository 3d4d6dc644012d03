package cli

import (
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// readsOnly reports the requests that change nothing on the server (the
// table's Pipeline). They are written together with the ping that checks
// the protocol, in one write, so a list or a read costs one round trip
// instead of two: a server of another protocol has then been asked
// something harmless, whose answer is dropped unread. Every other request
// still waits for the ping's answer, so a mismatched server is never asked
// to change anything.
func readsOnly(method string) bool {
	m, ok := protocol.Entry(method)
	return ok && m.Pipeline
}

// pipelined is request for a read (readsOnly): the ping and the request
// go in one write, and the answers, which the server gives in request
// order, are read back: the ping's checked as connect checks it, then the
// request's handled as request handles it.
func (a *app) pipelined(id, method string, params any, ok onSuccess) int {
	sock, err := a.socket()
	if err != nil {
		return a.fail(id, err)
	}
	ping, err := encodeRequest(id, "ping", nil)
	if err != nil {
		return a.fail(id, err)
	}
	req, err := encodeRequest(id, method, params)
	if err != nil {
		return a.fail(id, lostConnection(sock, err))
	}
	c, code := a.dial(id, sock)
	if c == nil {
		return code
	}
	defer c.Close()
	_ = c.Conn().SetDeadline(time.Now().Add(pingTimeout))
	err = c.WriteLine(append(append(ping, '\n'), req...))
	var line []byte
	var resp protocol.Response
	if err == nil {
		line, err = c.ReadLine()
	}
	if err == nil {
		line, resp, err = decodeResponse(line)
	}
	if code := a.checkPong(c, id, sock, line, resp, err); code != 0 {
		return code
	}
	answer, err := c.ReadLine()
	if err == nil {
		line, resp, err = decodeResponse(answer)
	}
	if err != nil {
		return a.fail(id, lostConnection(sock, err))
	}
	return a.answered(line, resp, ok)
}
