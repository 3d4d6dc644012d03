package protocol

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"
)

// ErrUnsafeSocket marks a socket Dial refused before sending anything: a
// directory on its path another user could tamper with, or a server
// running as another user.
var ErrUnsafeSocket = errors.New("refusing the socket")

// Client is a connection to a herdr server that carries requests in sequence.
// It is not safe for concurrent use.
type Client struct {
	conn   net.Conn
	reader *bufio.Reader
	next   uint64
}

// Connect dials the socket at path.
func Connect(path string) (*Client, error) {
	conn, err := Dial(path, 2*time.Second)
	if err != nil {
		return nil, err
	}
	return &Client{conn: conn, reader: bufio.NewReaderSize(conn, 4<<10)}, nil
}

// NewClient wraps an open connection (a pipe to a remote bridge, say).
func NewClient(conn net.Conn) *Client {
	return &Client{conn: conn, reader: bufio.NewReaderSize(conn, 4<<10)}
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Conn exposes the underlying connection (for deadlines and raw tests).
func (c *Client) Conn() net.Conn { return c.conn }

// RoundTrip writes one raw line (a newline is added) and reads one line back.
func (c *Client) RoundTrip(line []byte) ([]byte, error) {
	if err := c.WriteLine(line); err != nil {
		return nil, err
	}
	return c.ReadLine()
}

// WriteLine writes one line followed by a newline.
func (c *Client) WriteLine(line []byte) error {
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	_, err := c.conn.Write(buf)
	return err
}

// ReadLine reads one response or event line, without its newline.
func (c *Client) ReadLine() ([]byte, error) {
	line, err := c.reader.ReadBytes('\n')
	if err != nil {
		if len(line) > 0 {
			return line, nil
		}
		return nil, err
	}
	return line[:len(line)-1], nil
}

// Do sends a request with the given id and returns the decoded response.
func (c *Client) Do(id, method string, params any) (Response, error) {
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return Response{}, fmt.Errorf("encode params: %w", err)
	}
	line, err := json.Marshal(Request{ID: id, Method: method, Params: p})
	if err != nil {
		return Response{}, fmt.Errorf("encode request: %w", err)
	}
	raw, err := c.RoundTrip(line)
	if err != nil {
		return Response{}, err
	}
	var resp Response
	if err := Unmarshal(raw, &resp); err != nil {
		return Response{}, fmt.Errorf("decode response %q: %w", raw, err)
	}
	return resp, nil
}

// Call sends a request and decodes its result into out (may be nil). An
// error response comes back as *Error.
func (c *Client) Call(method string, params any, out any) error {
	c.next++
	resp, err := c.Do("c"+strconv.FormatUint(c.next, 10), method, params)
	if err != nil {
		return err
	}
	if resp.Error != nil {
		return &Error{Code: resp.Error.Code, Message: resp.Error.Message}
	}
	if out != nil {
		if err := Unmarshal(resp.Result, out); err != nil {
			return fmt.Errorf("decode %s result: %w", method, err)
		}
	}
	return nil
}
