package measure

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
)

// RawHTTP is the load programs' HTTP/1.1 client for timed GETs, as thin as pgbench is for SQL: each
// client keeps a connection open, writes the request's bytes as they are and reads the answer with
// a bufio.Reader (status line, headers, a Content-Length or chunked body, discarded). On the bench's
// two cores the load program takes its CPU from catalogd and PostgreSQL, so a heavy client lowers
// the rate it measures: net/http's client cost ~70–110 µs of CPU per GET (about what catalogd spends
// serving it), this one ~15 µs, as little as pgbench's client per `pgbench -S` transaction. Only
// GETs over plain http; every answer's status is checked and its body read to the end.
type RawHTTP struct {
	addr, host string
	auth       string
	idle       chan *rawConn
}

type rawConn struct {
	c   net.Conn
	r   *bufio.Reader
	req []byte
}

// NewRawHTTP is a client of base (http://host:port) sending token as its bearer token.
func NewRawHTTP(base, token string) (*RawHTTP, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("raw http: %q is not an http://host:port URL", base)
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	return &RawHTTP{addr: addr, host: u.Host, auth: "Bearer " + token, idle: make(chan *rawConn, 256)}, nil
}

// Get sends GET path (with its query) and reads the whole answer; it fails unless the status is
// want, and returns the body's length.
func (h *RawHTTP) Get(path string, want int) (int, error) {
	var c *rawConn
	select {
	case c = <-h.idle:
	default:
		nc, err := net.Dial("tcp", h.addr)
		if err != nil {
			return 0, err
		}
		c = &rawConn{c: nc, r: bufio.NewReaderSize(nc, 64<<10)}
	}
	c.req = append(c.req[:0], "GET "...)
	c.req = append(c.req, path...)
	c.req = append(c.req, " HTTP/1.1\r\nHost: "...)
	c.req = append(c.req, h.host...)
	c.req = append(c.req, "\r\nAuthorization: "...)
	c.req = append(c.req, h.auth...)
	c.req = append(c.req, "\r\nAccept: application/json\r\n\r\n"...)
	status, n, keep, err := c.exchange()
	if err != nil {
		_ = c.c.Close()
		return 0, fmt.Errorf("GET %s: %w", path, err)
	}
	if keep {
		select {
		case h.idle <- c:
		default:
			_ = c.c.Close()
		}
	} else {
		_ = c.c.Close()
	}
	if status != want {
		return n, fmt.Errorf("GET %s: status %d, want %d", path, status, want)
	}
	return n, nil
}

// Close closes the idle connections.
func (h *RawHTTP) Close() {
	for {
		select {
		case c := <-h.idle:
			_ = c.c.Close()
		default:
			return
		}
	}
}

var errRawFraming = errors.New("raw http: an answer without Content-Length or chunked encoding")

// exchange writes c.req and reads one answer: its status, the body's length and whether the
// connection may be used again.
func (c *rawConn) exchange() (status, n int, keep bool, err error) {
	if _, err = c.c.Write(c.req); err != nil {
		return 0, 0, false, err
	}
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		return 0, 0, false, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, 0, false, fmt.Errorf("raw http: status line %q", line)
	}
	if status, err = strconv.Atoi(string(line[9:12])); err != nil {
		return 0, 0, false, fmt.Errorf("raw http: status line %q", line)
	}
	length, chunked, keep := -1, false, true
	for {
		line, err = c.r.ReadSlice('\n')
		if err != nil {
			return 0, 0, false, err
		}
		if len(line) <= 2 { // the blank line that ends the headers
			break
		}
		name, value, ok := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(":"))
		if !ok {
			return 0, 0, false, fmt.Errorf("raw http: header line %q", line)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return 0, 0, false, fmt.Errorf("raw http: Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			keep = !bytes.EqualFold(value, []byte("close"))
		}
	}
	switch {
	case chunked:
		n, err = c.chunks()
	case length >= 0:
		n, err = c.r.Discard(length)
	case status == 204 || status == 304:
	default:
		err = errRawFraming
	}
	if err != nil {
		return 0, 0, false, err
	}
	return status, n, keep, nil
}

// chunks reads a chunked body to its end (trailers included) and returns its length.
func (c *rawConn) chunks() (int, error) {
	total := 0
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		size := bytes.TrimRight(line, "\r\n")
		if i := bytes.IndexByte(size, ';'); i >= 0 {
			size = size[:i]
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(size)), 16, 32)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("raw http: chunk size %q", line)
		}
		if n == 0 {
			for { // trailers, then the blank line
				line, err = c.r.ReadSlice('\n')
				if err != nil {
					return 0, err
				}
				if len(line) <= 2 {
					return total, nil
				}
			}
		}
		if _, err := c.r.Discard(int(n)); err != nil {
			return 0, err
		}
		if line, err = c.r.ReadSlice('\n'); err != nil || len(line) > 2 {
			return 0, fmt.Errorf("raw http: no line end after a chunk")
		}
		total += int(n)
	}
}
