package transfer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/blobstore"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/etag"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/history"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// Import and export jobs (API.md "Import and export (jobs)", docs/design.md "Import and export
// jobs"): the API side. An import's file reaches the blob store by the asset files' two-step
// upload (a signed URL, then `start` checks the object), or inline (at most MaxInlineBytes);
// the workers (worker.go) apply its lines. An export is queued at create; a worker writes its file.

// MaxInlineBytes is the largest file given inline to a create.
const MaxInlineBytes = 1 << 20

// DefaultMaxImportBytes is CATALOG_MAX_IMPORT_BYTES's default (API.md: 1 GiB).
const DefaultMaxImportBytes int64 = 1 << 30

// ExportFunc writes the tenant's (ctx's) lines of types (all when empty), its products filtered by
// products (all when nil), in format ("ndjson", "csv") to w, calling progress with the count of
// lines written now and then; it answers how many it wrote.
type ExportFunc func(ctx context.Context, types []string, products *pb.ListProductsRequest, format string, w io.Writer, progress func(int64)) (int64, error)

// Jobs is what the import and export services and workers share.
type Jobs struct {
	DB *store.DB
	// Files holds the jobs' files (nil: the operations answer 503).
	Files *blobstore.Store
	// Importer applies lines; Export writes them (server/transfer export, wired by server/app).
	Importer *Importer
	Export   ExportFunc
	// UploadTTL is how long an upload URL works, DownloadTTL a download URL.
	UploadTTL, DownloadTTL time.Duration
	// MaxImportBytes is the largest import file (DefaultMaxImportBytes when 0).
	MaxImportBytes int64
	// Analyze are the tables an import grows, analyzed as it grows (importRun.analyze).
	Analyze []string

	// importQueued and exportQueued let this process's workers take a job its API has just queued
	// at once, instead of at their next poll (Worker.Interval): the other replicas' workers still
	// find it by polling.
	importQueued, exportQueued signal
}

// signal wakes a waiting worker (made on first use: Jobs is built by struct literals and shared
// by pointer).
type signal struct {
	once sync.Once
	c    chan struct{}
}

// wait is the channel a worker waits on.
func (s *signal) wait() <-chan struct{} {
	s.once.Do(func() { s.c = make(chan struct{}, 1) })
	return s.c
}

// notify tells a waiting worker of this process that a job of its kind was queued. Called after
// the write that queued it returned: committed, unless the request runs in a transaction of its
// own (an Idempotency-Key) that commits after the handler; the worker then finds nothing yet and
// polls again after its interval, as it would have without the signal.
func (s *signal) notify() {
	s.wait()
	select {
	case s.c <- struct{}{}:
	default: // a signal is already waiting
	}
}

func (j *Jobs) maxImport() int64 {
	m := j.MaxImportBytes
	if m <= 0 {
		m = DefaultMaxImportBytes
	}
	if j.Files != nil {
		m = min(m, j.Files.MaxUploadBytes())
	}
	return m
}

func (j *Jobs) files() (*blobstore.Store, error) {
	if j.Files == nil {
		return nil, apierr.New(apierr.Unavailable, "no blob storage is configured for import and export files")
	}
	return j.Files, nil
}

// jobKey is where a job's file lives: under the tenant's hashed prefix like asset files.
func jobKey(tenant, kind string, id uuid.UUID) string {
	h := sha256.Sum256([]byte(tenant))
	return "tenants/" + hex.EncodeToString(h[:16]) + "/" + kind + "/" + id.String()
}

// contentTypes are the media types of the formats.
var contentTypes = map[string]string{"ndjson": "application/x-ndjson", "csv": "text/csv"}

// ImportList is the list spec of GET /v1/imports.
var ImportList = &list.Spec{
	Table: "imports",
	Filters: map[string]list.Field{
		"uuids":     {Column: "uuid", Type: list.UUID},
		"statuses":  {Column: "status", Type: list.Enum, Values: jsonpb.EnumValues(pb.ImportStatus(0).Descriptor())},
		"formats":   {Column: "format", Type: list.Enum, Values: jsonpb.EnumValues(pb.ImportFormat(0).Descriptor())},
		"createdAt": {Column: "created_at", Type: list.Time},
		"updatedAt": {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"createdAt": "created_at", "updatedAt": "updated_at", "status": "status"},
}

// ImportLineList is the list spec of GET /v1/imports/{importUuid}/lines.
var ImportLineList = &list.Spec{
	Table: "import_lines",
	Filters: map[string]list.Field{
		"uuids": {Column: "uuid", Type: list.UUID},
		"line":  {Column: "line", Type: list.Int},
		"types": {Column: "type", Type: list.Text},
		"codes": {Column: "code", Type: list.Text},
	},
	Order:        map[string]string{"line": "line", "createdAt": "created_at"},
	DefaultOrder: []string{"line"},
}

// ExportList is the list spec of GET /v1/exports.
var ExportList = &list.Spec{
	Table: "exports",
	Filters: map[string]list.Field{
		"uuids":     {Column: "uuid", Type: list.UUID},
		"statuses":  {Column: "status", Type: list.Enum, Values: jsonpb.EnumValues(pb.ExportStatus(0).Descriptor())},
		"formats":   {Column: "format", Type: list.Enum, Values: jsonpb.EnumValues(pb.ExportFormat(0).Descriptor())},
		"createdAt": {Column: "created_at", Type: list.Time},
		"updatedAt": {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"createdAt": "created_at", "updatedAt": "updated_at", "status": "status"},
}

// enumOf is the enum value of a stored value, its JSON name (IMPORT_STATUS_QUEUED ← queued), as
// the codec reads it (jsonpb.ParseEnum).
func enumOf[E interface {
	~int32
	Descriptor() protoreflect.EnumDescriptor
}](s string) E {
	var zero E
	n, _ := jsonpb.ParseEnum(zero.Descriptor(), s)
	return E(n)
}

func ts(t *time.Time) *timestamppb.Timestamp {
	if t == nil {
		return nil
	}
	return timestamppb.New(*t)
}

func importToPB(r db.Import) *pb.Import {
	m := &pb.Import{Uuid: r.Uuid.String(), CreatedAt: timestamppb.New(r.CreatedAt), UpdatedAt: timestamppb.New(r.UpdatedAt),
		Format: enumOf[pb.ImportFormat](r.Format), DryRun: r.DryRun,
		FileName: r.FileName, SizeBytes: r.SizeBytes, ChecksumSha256: r.ChecksumSha256,
		Status:    enumOf[pb.ImportStatus](r.Status),
		BytesRead: r.BytesRead, LinesRead: r.LinesRead, CreatedCount: r.CreatedCount, UpdatedCount: r.UpdatedCount,
		UnchangedCount: r.UnchangedCount, FailedCount: r.FailedCount, StartedAt: ts(r.StartedAt), FinishedAt: ts(r.FinishedAt),
		FailureReason: r.FailureReason}
	m.Etag = etag.Of(m)
	return m
}

func importLineToPB(r db.ImportLine) *pb.ImportLine {
	m := &pb.ImportLine{Uuid: r.Uuid.String(), CreatedAt: timestamppb.New(r.CreatedAt), UpdatedAt: timestamppb.New(r.UpdatedAt),
		ImportUuid: r.ImportUuid.String(), Line: r.Line, Type: r.Type, Code: r.Code,
		Status: enumOf[pb.ImportLineStatus](r.Status)}
	var errs []LineError
	_ = json.Unmarshal(r.Errors, &errs)
	for _, e := range errs {
		m.Errors = append(m.Errors, &pb.ImportLineError{Field: e.Field, Code: e.Code, Message: e.Message})
	}
	m.Etag = etag.Of(m)
	return m
}

// ImportServer implements catalog.v1.ImportService.
type ImportServer struct {
	pb.UnimplementedImportServiceServer
	*Jobs
}

func (s *ImportServer) ListImports(ctx context.Context, req *pb.ListImportsRequest) (*pb.ListImportsResponse, error) {
	rows, page, err := list.Run[db.Import](ctx, s.DB, ImportList, reqctx.Tenant(ctx), req)
	if err != nil {
		return nil, err
	}
	out := make([]*pb.Import, len(rows))
	for i, r := range rows {
		out[i] = importToPB(r)
	}
	return &pb.ListImportsResponse{Items: out, Pagination: page}, nil
}

func (s *ImportServer) GetImport(ctx context.Context, req *pb.GetImportRequest) (*pb.GetImportResponse, error) {
	r, err := s.importAt(ctx, req.ImportUuid)
	if err != nil {
		return nil, err
	}
	return &pb.GetImportResponse{Import: importToPB(r)}, nil
}

func (s *ImportServer) importAt(ctx context.Context, raw string) (db.Import, error) {
	return jobAt(ctx, "import", "importUuid", raw, func(tenant string, id uuid.UUID) (db.Import, error) {
		return s.DB.Q.GetImport(ctx, db.GetImportParams{TenantID: tenant, Uuid: id})
	})
}

// jobAt reads the job (or line) of path parameter raw, field its JSON name, in the caller's
// tenant with get: 404 naming kind when there is none.
func jobAt[T any](ctx context.Context, kind, field, raw string, get func(tenant string, id uuid.UUID) (T, error)) (T, error) {
	id, err := fields.UUID(field, raw)
	if err != nil {
		var zero T
		return zero, err
	}
	r, err := get(reqctx.Tenant(ctx), id)
	if store.IsNoRows(err) {
		return r, apierr.NotFoundf(kind, raw)
	}
	return r, err
}

// CreateImport creates an import: queued at once with its file given inline, else awaiting the
// upload of its file to a signed URL.
func (s *ImportServer) CreateImport(ctx context.Context, req *pb.CreateImportRequest) (*pb.CreateImportResponse, error) {
	fs, err := s.files()
	if err != nil {
		return nil, err
	}
	in := req.GetImport()
	format := crud.EnumName(in.GetFormat())
	v := apierr.NewValidator()
	if format == "" {
		v.Add("format", "must be one of ndjson, csv")
	}
	sum := strings.ToLower(in.GetChecksumSha256())
	if in.ChecksumSha256 != nil {
		if _, err := hex.DecodeString(sum); err != nil || len(sum) != 64 {
			v.Add("checksumSha256", "must be 64 hexadecimal digits (SHA-256)")
		}
	}
	inline := in.Content != nil
	switch {
	case inline && len(in.Content) > MaxInlineBytes:
		return nil, apierr.New(apierr.PayloadTooLarge, "an inline file is at most %d bytes; upload larger files (create without content, then PUT to uploadUrl)", MaxInlineBytes)
	case inline && in.SizeBytes != nil && in.GetSizeBytes() != int64(len(in.Content)):
		v.Add("sizeBytes", "is %d but the content has %d bytes", in.GetSizeBytes(), len(in.Content))
	case !inline && in.SizeBytes == nil:
		v.Add("sizeBytes", "is required to upload a file (or give the file itself as content)")
	case !inline && in.GetSizeBytes() > s.maxImport():
		v.Add("sizeBytes", "must be at most %d bytes (CATALOG_MAX_IMPORT_BYTES)", s.maxImport())
	}
	if inline && in.ChecksumSha256 != nil && len(sum) == 64 {
		if got := sha256.Sum256(in.Content); hex.EncodeToString(got[:]) != sum {
			v.Add("checksumSha256", "does not match the content's SHA-256 %s", hex.EncodeToString(got[:]))
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	id := uuid.Must(uuid.NewV7())
	key := jobKey(tenant, "imports", id)
	p := db.InsertImportParams{TenantID: tenant, Uuid: id, Format: format, DryRun: in.GetDryRun(), FileName: in.FileName,
		SizeBytes: in.GetSizeBytes(), StorageKey: key, Status: "awaiting_upload"}
	if in.ChecksumSha256 != nil {
		p.ChecksumSha256 = &sum
	}
	var up blobstore.Upload
	if inline {
		size, digest, err := fs.Put(ctx, key, contentTypes[format], bytes.NewReader(in.Content))
		if err != nil {
			return nil, err
		}
		p.SizeBytes, p.ChecksumSha256, p.Status = size, &digest, "queued"
	} else {
		if up, err = fs.SignedUpload(key+".upload", contentTypes[format], p.SizeBytes, sum, s.UploadTTL); err != nil {
			return nil, err
		}
		p.UploadExpiresAt = &up.ExpiresAt
	}
	var row db.Import
	err = crud.Write(ctx, s.DB, crud.Scope{}, func(t *crud.Tx) error {
		p.Now, p.Actor = t.Now, history.Actor(ctx) // its lines' actor
		var err error
		if row, err = t.Q.InsertImport(ctx, p); err != nil {
			return err
		}
		t.Emit(events.New("import.created", "importUuid", id.String()))
		return nil
	})
	if err != nil {
		if inline {
			_ = fs.Delete(context.WithoutCancel(ctx), key)
		}
		return nil, err
	}
	if row.Status == "queued" {
		s.importQueued.notify()
	}
	out := &pb.ImportUpload{Import: importToPB(row)}
	if !inline {
		out.UploadUrl, out.UploadMethod, out.UploadHeaders = &up.URL, &up.Method, up.Headers
		out.ExpiresAt = timestamppb.New(up.ExpiresAt)
	}
	return &pb.CreateImportResponse{Upload: out}, nil
}

// TransitionImport starts or cancels an import.
func (s *ImportServer) TransitionImport(ctx context.Context, req *pb.TransitionImportRequest) (*pb.TransitionImportResponse, error) {
	cur, err := s.importAt(ctx, req.ImportUuid)
	if err != nil {
		return nil, err
	}
	move := crud.EnumName(req.GetTransition())
	if move == "" {
		return nil, apierr.Field("transition", "must be one of start, cancel")
	}
	if err := etag.Check(ctx, "import", req.ImportUuid, importToPB(cur)); err != nil {
		return nil, err
	}
	// start checks the uploaded object first, outside any transaction (blob I/O never holds a lock).
	var verified *string
	var failure string
	if move == "start" && cur.Status == "awaiting_upload" {
		if verified, failure, err = s.verifyUpload(ctx, cur); err != nil {
			return nil, err
		}
	}
	var row db.Import
	err = crud.Write(ctx, s.DB, crud.Scope{}, func(t *crud.Tx) error {
		r, err := t.Q.LockImport(ctx, db.LockImportParams{TenantID: cur.TenantID, Uuid: cur.Uuid})
		if err != nil {
			return err
		}
		if err := etag.Check(ctx, "import", req.ImportUuid, importToPB(r)); err != nil {
			return err
		}
		status, event := "", ""
		switch {
		case move == "start" && r.Status == "awaiting_upload" && failure != "":
			status, event = "failed", "import.failed"
		case move == "start" && r.Status == "awaiting_upload":
			status = "queued"
		case move == "cancel" && (r.Status == "awaiting_upload" || r.Status == "queued" || r.Status == "running"):
			status, event = "cancelled", "import.cancelled"
		default:
			return apierr.New(apierr.InvalidTransition, "cannot %s an import that is %s", move, r.Status).
				WithMeta("status", r.Status).WithMeta("transition", move)
		}
		p := db.SetImportStatusParams{TenantID: r.TenantID, Uuid: r.Uuid, Status: status, Now: t.Now, ChecksumSha256: verified}
		if failure != "" {
			p.FailureReason = &failure
		}
		if row, err = t.Q.SetImportStatus(ctx, p); err != nil {
			return err
		}
		if event != "" {
			t.Emit(events.New(event, "importUuid", r.Uuid.String()))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if row.Status == "queued" {
		s.importQueued.notify()
	}
	if failure != "" {
		return nil, apierr.New(apierr.UploadVerificationFailed, "the import's file failed its check: %s", failure).
			WithMeta("importUuid", row.Uuid.String())
	}
	return &pb.TransitionImportResponse{Import: importToPB(row)}, nil
}

// verifyUpload moves an import's uploaded object into place and compares it with the declared
// size and SHA-256: the checksum it has, or why it failed.
func (s *ImportServer) verifyUpload(ctx context.Context, r db.Import) (*string, string, error) {
	fs, err := s.files()
	if err != nil {
		return nil, "", err
	}
	if err := fs.Move(ctx, r.StorageKey+".upload", r.StorageKey); err != nil && !blobstore.IsNotFound(err) {
		return nil, "", err
	}
	info, ok, err := fs.Stat(ctx, r.StorageKey)
	switch {
	case err != nil:
		return nil, "", err
	case !ok:
		return nil, "no file was uploaded", nil
	case info.Size != r.SizeBytes:
		return nil, fmt.Sprintf("the uploaded file has %d bytes, not the declared %d", info.Size, r.SizeBytes), nil
	}
	sum, err := fs.Checksum(ctx, r.StorageKey)
	if err != nil {
		return nil, "", err
	}
	if r.ChecksumSha256 != nil && *r.ChecksumSha256 != sum {
		return nil, "the uploaded file's SHA-256 is " + sum + ", not the declared " + *r.ChecksumSha256, nil
	}
	return &sum, "", nil
}

func (s *ImportServer) ListImportLines(ctx context.Context, req *pb.ListImportLinesRequest) (*pb.ListImportLinesResponse, error) {
	imp, err := s.importAt(ctx, req.ImportUuid)
	if err != nil {
		return nil, err
	}
	rows, page, err := list.Run[db.ImportLine](ctx, s.DB, ImportLineList, imp.TenantID, req, list.Eq("import_uuid", imp.Uuid))
	if err != nil {
		return nil, err
	}
	out := make([]*pb.ImportLine, len(rows))
	for i, r := range rows {
		out[i] = importLineToPB(r)
	}
	return &pb.ListImportLinesResponse{Items: out, Pagination: page}, nil
}

func (s *ImportServer) GetImportLine(ctx context.Context, req *pb.GetImportLineRequest) (*pb.GetImportLineResponse, error) {
	imp, err := s.importAt(ctx, req.ImportUuid)
	if err != nil {
		return nil, err
	}
	r, err := jobAt(ctx, "import line", "lineUuid", req.LineUuid, func(tenant string, id uuid.UUID) (db.ImportLine, error) {
		return s.DB.Q.GetImportLine(ctx, db.GetImportLineParams{TenantID: tenant, ImportUuid: imp.Uuid, Uuid: id})
	})
	if err != nil {
		return nil, err
	}
	return &pb.GetImportLineResponse{ImportLine: importLineToPB(r)}, nil
}
