package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/genproto/googleapis/api/annotations"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// Idempotency keys (docs/design.md "Safe writes: idempotency keys"; API.md "Safe writes"): a POST
// or PATCH that carries an Idempotency-Key (gRPC metadata idempotency-key; the gateway forwards
// the HTTP header) runs in one transaction that the chain opens itself:
//
//  1. pg_try_advisory_xact_lock on (tenant, key): held by another request with the key, on any
//     replica, the answer is 409 IDEMPOTENCY_IN_PROGRESS;
//  2. the stored answer of (tenant, key), if younger than IdempotencyTTL: with the same fingerprint
//     (method and request message) it is replayed with the metadata idempotency-replayed: true
//     (HTTP Idempotency-Replayed) and nothing runs; with another, 422 IDEMPOTENCY_KEY_REUSED;
//  3. otherwise the handler runs under store.WithTx (its store.Tx run in this transaction, first
//     without savepoints and, when one fails, again from the start with savepoints: store.Pipe; DB.Q's
//     statements run in it too) and its answer is stored in the same transaction, which then
//     commits: the write and its stored answer commit together or not at all.
//
// Successes and 4xx answers are stored (a retry gets the same refusal); 5xx, UNAVAILABLE, deadline
// and cancellation are not (the transaction rolls back and the key stays free for a retry).
// Methods are those whose google.api.http rule is post or patch; a key on any other is ignored.

// IdempotencyHeader is the metadata key (and, capitalised, the HTTP header) of the key.
const IdempotencyHeader = "idempotency-key"

// IdempotencyReplayedHeader is the response metadata (HTTP Idempotency-Replayed) of a replay.
const IdempotencyReplayedHeader = "idempotency-replayed"

// IdempotencyTTL is how long a key's answer is kept and replayed.
const IdempotencyTTL = 24 * time.Hour

// maxIdempotencyKey is the longest key (characters, all printable ASCII).
const maxIdempotencyKey = 255

// idempotency is the chain's idempotency-key step.
type idempotency struct {
	db *store.DB
	// methods are the keyed methods (post and patch rules) with their response message types.
	methods map[string]protoreflect.MessageType
}

// newIdempotency finds the keyed methods of services: those whose google.api.http rule is post or
// patch.
func newIdempotency(d *store.DB, services []Service) (*idempotency, error) {
	id := &idempotency{db: d, methods: map[string]protoreflect.MessageType{}}
	err := eachMethod(services, func(name string, m protoreflect.MethodDescriptor) error {
		rule, _ := proto.GetExtension(m.Options(), annotations.E_Http).(*annotations.HttpRule)
		switch rule.GetPattern().(type) {
		case *annotations.HttpRule_Post, *annotations.HttpRule_Patch:
		default:
			return nil
		}
		mt, err := protoregistry.GlobalTypes.FindMessageByName(m.Output().FullName())
		if err != nil {
			return fmt.Errorf("method %s: %w", name, err)
		}
		id.methods[name] = mt
		return nil
	})
	return id, err
}

// key is the call's Idempotency-Key when method is keyed and the call has one. A malformed key is
// 400 naming the header.
func (id *idempotency) key(method string, md metadata.MD) (string, bool, error) {
	if id == nil {
		return "", false, nil
	}
	if _, ok := id.methods[method]; !ok {
		return "", false, nil
	}
	vs := md.Get(IdempotencyHeader)
	switch {
	case len(vs) == 0:
		return "", false, nil
	case len(vs) > 1:
		return "", false, badKey("send exactly one Idempotency-Key")
	}
	k := vs[0]
	if k == "" || len(k) > maxIdempotencyKey {
		return "", false, badKey(fmt.Sprintf("must be 1 to %d printable ASCII characters, not %d", maxIdempotencyKey, len(k)))
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return "", false, badKey(fmt.Sprintf("must be 1 to %d printable ASCII characters; character %d is not", maxIdempotencyKey, i+1))
		}
	}
	return k, true, nil
}

func badKey(msg string) error {
	return apierr.New(apierr.ValidationFailed, "Idempotency-Key: %s", msg).WithField("Idempotency-Key", msg)
}

// errRetryAttempt marks an attempt that PostgreSQL aborted as a deadlock victim or serialization
// failure.
type errRetryAttempt struct{ err error }

func (e errRetryAttempt) Error() string { return e.err.Error() }

// run runs handler for the keyed call (see the top of this file). normalize is the chain's error
// normalisation: the answer stored is the one the client gets. A deadlock or serialization failure
// runs the whole attempt again, up to three attempts in all (as store.Tx does at top level: under
// the outer transaction its savepoints do not).
func (id *idempotency) run(ctx context.Context, method, key string, req any, handler grpc.UnaryHandler,
	normalize func(context.Context, string, error) error) (any, error) {
	m, ok := req.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("request of %s is a %T, not a message", method, req)
	}
	fp, err := fingerprint(method, m, ifMatch(ctx))
	if err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	savepoints := false // the first attempt runs without savepoints (idempotency_tx.go)
	for attempt := 1; ; attempt++ {
		resp, err := id.attempt(ctx, tenant, method, key, fp, req, handler, normalize, savepoints)
		if errors.Is(err, errWithSavepoints) && !savepoints {
			savepoints = true
			attempt--
			continue
		}
		var retry errRetryAttempt
		if errors.As(err, &retry) {
			if attempt < 3 && ctx.Err() == nil {
				time.Sleep(time.Duration(attempt) * time.Duration(5+rand.IntN(20)) * time.Millisecond)
				continue
			}
			return nil, retry.err
		}
		return resp, err
	}
}

// fingerprint is sha256 of the method and the request's deterministic encoding: the same request
// in other JSON (whitespace, key order) has the same fingerprint. A request's If-Match (REST header
// or gRPC metadata) is part of it, so the same body under another condition is another request
// (422): a retry must not replay an answer given under a condition it no longer sends. Without
// If-Match the fingerprint is that of the method and body alone, as keys stored before it counted
// were; with one it starts with "v2" and the header's length, a form a method name never takes.
func fingerprint(method string, m proto.Message, ifMatch string) ([]byte, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	if ifMatch != "" {
		h.Write([]byte("v2\x00" + strconv.Itoa(len(ifMatch)) + "\x00" + ifMatch))
	}
	h.Write([]byte(method))
	h.Write([]byte{0})
	h.Write(b)
	return h.Sum(nil), nil
}

// The statements of an attempt. The lock's key is the tenant and the key, length-prefixed (neither
// can then pass for the other). idemClaimSQL takes the lock and looks the key up in one statement;
// its snapshot is taken before the lock, so it can miss the answer of a request that committed and
// let the lock go in between: that request's row then makes the final INSERT fail (primary key),
// and the attempt runs again, to replay it. An expired row is looked up again once the lock is held
// (idemLookupSQL, a fresh snapshot) before it is taken over (an upsert: the pruner may delete it
// meanwhile); a key never seen is a plain INSERT.
const (
	idemClaimSQL = `SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)), k.fingerprint, k.code, k.response,
    k.created_at > now() - make_interval(secs => $4)
FROM (SELECT 1) one LEFT JOIN idempotency_keys k ON k.tenant_id = $2 AND k.key = $3`
	idemLookupSQL = `SELECT fingerprint, code, response, created_at > now() - make_interval(secs => $3)
FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`
	idemInsertSQL = `INSERT INTO idempotency_keys (tenant_id, key, method, fingerprint, code, response)
VALUES ($1, $2, $3, $4, $5, $6)`
	idemReplaceSQL = idemInsertSQL + `
ON CONFLICT (tenant_id, key) DO UPDATE SET method = excluded.method, fingerprint = excluded.fingerprint,
    code = excluded.code, response = excluded.response, created_at = excluded.created_at`
)

// idemKeysPK is the primary key of idempotency_keys (a first answer stored meanwhile).
const idemKeysPK = "idempotency_keys_pkey"

// errWithSavepoints: a store.Tx of the handler failed in an attempt without savepoints: the attempt
// runs again with them.
var errWithSavepoints = errors.New("run again with savepoints")

func (id *idempotency) attempt(ctx context.Context, tenant, method, key string, fp []byte, req any, handler grpc.UnaryHandler,
	normalize func(context.Context, string, error) error, savepoints bool) (any, error) {
	conn, err := id.db.Pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	// The transaction saves round trips and statements, which the bench showed to be most of a
	// key's cost (store.Pipe): the claim goes in BEGIN's round trip, the stored answer in COMMIT's,
	// and the handler's store.Tx calls run without savepoints at first (Optimistic: most succeed;
	// a savepoint and its release are two statements and a subtransaction). When one fails, the
	// transaction cannot be rolled back to before it, and the whole attempt runs again with
	// savepoints (sent with the next statement).
	tx := store.NewPipe(conn.Conn(), nil, "BEGIN")
	tx.Optimistic = !savepoints
	// The claim goes in BEGIN's round trip.
	b := &pgx.Batch{}
	var locked bool
	var live *bool
	var storedFP, response []byte
	var code *int32
	b.Queue(idemClaimSQL, "catalogd:idempotency:"+strconv.Itoa(len(tenant))+":"+tenant+":"+key, tenant, key,
		IdempotencyTTL.Seconds()).QueryRow(func(r pgx.Row) error {
		return r.Scan(&locked, &storedFP, &code, &response, &live)
	})
	err = tx.Send(ctx, b)
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after commit
	if err != nil {
		return nil, err
	}
	if !locked {
		return nil, apierr.New(apierr.IdempotencyInProgress,
			"a request with this Idempotency-Key is still in progress; retry once it has finished")
	}
	found := live != nil
	if found && !*live { // expired, as the claim's snapshot saw it: look again under the lock
		err := tx.QueryRow(ctx, idemLookupSQL, tenant, key, IdempotencyTTL.Seconds()).Scan(&storedFP, &code, &response, &live)
		if errors.Is(err, pgx.ErrNoRows) {
			found = false
		} else if err != nil {
			return nil, err
		}
	}
	if found && *live {
		if !bytes.Equal(storedFP, fp) {
			return nil, apierr.New(apierr.IdempotencyKeyReused,
				"this Idempotency-Key was used for another request (another body, operation or If-Match) within the last 24 hours; use a new key")
		}
		return id.replay(ctx, method, codes.Code(*code), response)
	}
	resp, herr := handler(store.WithTx(ctx, tx), req)
	if c, _ := store.PgCode(herr); c == store.DeadlockDetected || c == store.SerializationFailure {
		return nil, errRetryAttempt{herr}
	}
	if tx.Failed() { // a store.Tx failed with no savepoint to roll back to: everything rolls back
		return nil, errWithSavepoints
	}
	herr = normalize(ctx, method, herr)
	var answer []byte
	var answerCode codes.Code
	if herr == nil {
		m, ok := resp.(proto.Message)
		if !ok {
			return nil, fmt.Errorf("response of %s is a %T, not a message", method, resp)
		}
		if answer, err = (proto.MarshalOptions{Deterministic: true}).Marshal(m); err != nil {
			return nil, err
		}
	} else {
		if !storedError(herr) {
			return resp, herr // rolled back: the key stays free
		}
		st := status.Convert(herr)
		answerCode = st.Code()
		if answer, err = proto.Marshal(st.Proto()); err != nil {
			return nil, err
		}
	}
	sql := idemInsertSQL
	if found { // expired: taken over
		sql = idemReplaceSQL
	}
	if err := tx.CommitWith(ctx, sql, tenant, key, method, fp, int32(answerCode), answer); err != nil {
		c, constraint := store.PgCode(err)
		if c == store.DeadlockDetected || c == store.SerializationFailure || (c == store.UniqueViolation && constraint == idemKeysPK) {
			return nil, errRetryAttempt{err} // (a first answer stored meanwhile: the next attempt replays it)
		}
		if herr != nil { // the refusal stands, unstored (e.g. a handler that failed outside its savepoints)
			return nil, herr
		}
		return nil, err
	}
	return resp, herr
}

// storedError reports whether an (already normalised) error is an answer worth storing: a 4xx of
// the API, except those that say nothing about the request itself (408, 429: the body came too
// slowly, the tenant's limits). 5xx, UNAVAILABLE, deadline and cancellation are not stored.
func storedError(err error) bool {
	e := apierr.From(err) // cancellation and deadline are UNAVAILABLE here
	h := e.Code.HTTPStatus()
	return h >= 400 && h < 500 && h != 408 && h != 429
}

// replay answers with a stored answer and idempotency-replayed: true.
func (id *idempotency) replay(ctx context.Context, method string, code codes.Code, response []byte) (any, error) {
	_ = grpc.SetHeader(ctx, metadata.Pairs(IdempotencyReplayedHeader, "true"))
	if code != codes.OK {
		st := &spb.Status{}
		if err := proto.Unmarshal(response, st); err != nil {
			return nil, fmt.Errorf("stored answer of %s: %w", method, err)
		}
		return nil, status.FromProto(st).Err()
	}
	mt := id.methods[method]
	m := mt.New().Interface()
	if err := proto.Unmarshal(response, m); err != nil {
		return nil, fmt.Errorf("stored answer of %s: %w", method, err)
	}
	return m, nil
}
