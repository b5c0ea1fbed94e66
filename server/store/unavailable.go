package store

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// IsUnavailable reports whether err means that the database could not be reached or could not
// serve the request for a reason that is not the request's own: the API answers these 503
// UNAVAILABLE with Retry-After (DESIGN.md "HTTP conventions"), never 500. It is the one place
// that decides; the interceptors call it for every error a service returns.
//
// Unavailable:
//   - a connection attempt that failed (*pgconn.ConnectError: refused, reset, DNS, the server
//     starting up or shutting down, too many connections, a connect that timed out), unless the
//     request itself was cancelled;
//   - a connection that broke or was closed under the request (pgconn.ErrConnClosed, io.EOF,
//     io.ErrUnexpectedEOF, ECONNRESET, EPIPE, ECONNREFUSED, any network error that is not the
//     request's own deadline);
//   - PostgreSQL errors of SQLSTATE class 08 (connection exception) and 53 (insufficient
//     resources: too many connections, out of memory, disk full), 57P01 admin_shutdown, 57P02
//     crash_shutdown, 57P03 cannot_connect_now, 57P04 database_dropped, 58030 io_error;
//   - 40P01 deadlock_detected and 40001 serialization_failure that outlived DB.Tx's retries: the
//     request met concurrent writes of the same rows three times; it is sound, and a retry a moment
//     later succeeds (a 500 would tell the client its request is at fault, or the service broken);
//   - a pool that is closed (the process is shutting down).
//
// Not unavailable: nil, a cancelled request (context.Canceled: the client left), a request whose
// own deadline expired (context.DeadlineExceeded: the interceptors answer that as a timeout,
// which the REST facade also renders 503 with Retry-After), constraint violations and every other
// SQLSTATE.
func IsUnavailable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true // including a connect that ran out of the request's time: the database did not answer
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return unavailableCode(pe.Code)
	}
	if errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, net.ErrClosed) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	// puddle's ErrClosedPool ("closed pool"), pgxpool's dependency: matched by text rather than
	// by importing puddle for one sentinel.
	return strings.HasSuffix(err.Error(), "closed pool")
}

// unavailableCode reports the SQLSTATEs that mean "the database cannot serve now".
func unavailableCode(code string) bool {
	switch {
	case strings.HasPrefix(code, "08"), strings.HasPrefix(code, "53"):
		return true
	}
	switch code {
	case AdminShutdown, CrashShutdown, CannotConnectNow, DatabaseDropped, IOError, DeadlockDetected, SerializationFailure:
		return true
	}
	return false
}

// SQLSTATEs of a server that is going away or cannot take the request (IsUnavailable).
const (
	AdminShutdown      = "57P01"
	CrashShutdown      = "57P02"
	CannotConnectNow   = "57P03"
	DatabaseDropped    = "57P04"
	TooManyConnections = "53300"
	IOError            = "58030"
)
