package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/blobstore"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/etag"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/renditions"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// Asset files (API.md "Assets", docs/design.md "Asset files"): the bytes of an asset, uploaded by
// clients in two steps and stored in the blob store (server/blobstore), plus the renditions that
// the background workers (server/assetfiles) make of image originals.
//
//   - initiate inserts `pending` files and hands out URLs signed for exactly the declared content
//     type and size (and SHA-256, where the store can bind it), valid for FileStorage.UploadTTL;
//   - the client transfers the bytes to the blob store (catalogd's own handler or S3), not to the API;
//   - complete compares the stored object with the declaration, outside any transaction (blob I/O
//     must never hold a row lock or a pooled connection), then records the outcome under a row
//     lock: `uploaded` (width and height for images; renditions queued for image originals) or
//     `failed` with its reason, committed before the 409 is returned, its object queued for
//     deletion;
//   - delete removes the rows (an original with its renditions) and queues their objects in the
//     same transaction (blob_deletions, migration 0018), so a blob never outlives its file.
//
// Object keys are `tenants/<first 16 bytes of SHA-256(tenant), hex>/<storageLocation><fileUuid>`:
// the tenant's id never appears in a URL, and two tenants can never share a key. An upload URL
// writes `<key>.upload` (the staging object), and complete moves it to the key before checking it:
// an upload URL that still works after complete (or a second PUT racing the first) can then only
// write a staging object that nothing reads, which the blob collector removes once the URL has
// expired. The bytes a file's checksum describes can never be replaced.

// FileStore is what asset files need of the blob store (*blobstore.Store implements it).
type FileStore interface {
	SignedUpload(key, contentType string, size int64, sha256Hex string, ttl time.Duration) (blobstore.Upload, error)
	SignedDownloadAs(key, fileName string, ttl time.Duration) (string, time.Time, error)
	Stat(ctx context.Context, key string) (blobstore.Info, bool, error)
	Checksum(ctx context.Context, key string) (string, error)
	NewReader(ctx context.Context, key string) (io.ReadCloser, error)
	// Move renames an object (blobstore.IsNotFound when from does not exist).
	Move(ctx context.Context, from, to string) error
	MaxUploadBytes() int64
}

// FileStorage configures the asset-file operations.
type FileStorage struct {
	Store FileStore
	// UploadTTL is how long an upload URL works (and a pending file waits for complete);
	// DownloadTTL how long a get's downloadUrl works.
	UploadTTL, DownloadTTL time.Duration
}

// Defaults of FileStorage (CATALOG_UPLOAD_URL_TTL, CATALOG_DOWNLOAD_URL_TTL).
const (
	DefaultUploadTTL   = time.Hour
	DefaultDownloadTTL = 15 * time.Minute
)

// emptySHA256 is the SHA-256 of no bytes: the only checksum a 0-byte file can declare.
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// AssetFileList is the list spec of GET /v1/assets/{assetUuid}/files.
var AssetFileList = &list.Spec{
	Table: "asset_files",
	Filters: map[string]list.Field{
		"uuids":           {Column: "uuid", Type: list.UUID},
		"kinds":           {Column: "kind", Type: list.Enum, Values: enumValues(pb.AssetFileKind(0))},
		"statuses":        {Column: "status", Type: list.Enum, Values: enumValues(pb.AssetFileStatus(0))},
		"fileName":        {Column: "file_name", Type: list.Text},
		"contentTypes":    {Column: "content_type", Type: list.Text},
		"sourceFileUuids": {Column: "source_file_uuid", Type: list.UUID},
		"createdAt":       {Column: "created_at", Type: list.Time},
		"updatedAt":       {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"fileName": "file_name", "kind": "kind", "status": "status", "sizeBytes": "size_bytes",
		"createdAt": "created_at", "updatedAt": "updated_at"},
}

func assetFileToPB(f db.AssetFile) *pb.AssetFile {
	m := &pb.AssetFile{Uuid: f.Uuid.String(), CreatedAt: timestamppb.New(f.CreatedAt), UpdatedAt: timestamppb.New(f.UpdatedAt),
		AssetUuid: f.AssetUuid.String(),
		Kind:      pb.AssetFileKind(enumValue(pb.AssetFileKind_value, "ASSET_FILE_KIND_", f.Kind)),
		Status:    pb.AssetFileStatus(enumValue(pb.AssetFileStatus_value, "ASSET_FILE_STATUS_", f.Status)),
		FileName:  f.FileName, ContentType: f.ContentType, SizeBytes: f.SizeBytes, ChecksumSha256: f.ChecksumSha256,
		Width: f.Width, Height: f.Height, UploadExpiresAt: tsp(f.UploadExpiresAt), FailureReason: f.FailureReason}
	if f.SourceFileUuid != nil {
		s := f.SourceFileUuid.String()
		m.SourceFileUuid = &s
	}
	return m
}

// assetFiles is the family's engine part: get and delete (initiate and complete are below).
var assetFiles = &crud.Family[db.AssetFile, *pb.AssetFile, *pb.AssetFileUploadInitiate, *pb.AssetFileUploadComplete]{
	Kind: "asset file", Event: "asset.file", IDKey: "fileUuid",
	ID:   func(f db.AssetFile) uuid.UUID { return f.Uuid },
	ToPB: assetFileToPB,
	CheckCreate: func(v apierr.Validator, c *pb.AssetFileUploadInitiate) string {
		checkEnum(v, "kind", c.GetKind())
		checkFileName(v, c.GetFileName())
		if c.GetContentType() != "" {
			if _, err := blobstore.CanonicalContentType(c.GetContentType()); err != nil {
				v.Add("contentType", "must be a media type such as image/jpeg or application/pdf")
			}
		}
		switch {
		case c.ChecksumSha256 != nil && !isSHA256Hex(c.GetChecksumSha256()):
			v.Add("checksumSha256", "must be 64 hexadecimal characters (the SHA-256 of the bytes)")
		case c.ChecksumSha256 != nil && c.GetSizeBytes() == 0 && !strings.EqualFold(c.GetChecksumSha256(), emptySHA256):
			v.Add("checksumSha256", "must be %s, the SHA-256 of no bytes, for a file of 0 bytes", emptySHA256)
		}
		return ""
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.AssetFile, error) {
		return q.GetAssetFile(ctx, db.GetAssetFileParams{TenantID: tenant, AssetUuid: s.Parent, Uuid: id})
	},
	// DeleteOne deletes the file and, for an original, its renditions: one asset.file.deleted each
	// (the engine emits the file's own).
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		gone, err := t.Q.DeleteAssetFile(ctx, db.DeleteAssetFileParams{TenantID: t.Tenant, AssetUuid: t.Scope.Parent, Uuid: id})
		for _, d := range gone {
			if d.Uuid != id {
				t.Emit(AssetFileEvent("deleted", &d, nil))
			}
		}
		return int64(len(gone)), err
	},
}

// AssetFileEvent is the event of a change of an asset file from before to after (nil: created,
// or deleted), with both for its history entry.
func AssetFileEvent(verb string, before, after *db.AssetFile) events.Event {
	f := after
	if f == nil {
		f = before
	}
	e := events.New("asset.file."+verb, "assetUuid", f.AssetUuid.String(), "fileUuid", f.Uuid.String())
	if before != nil {
		e.Before = assetFileToPB(*before)
	}
	if after != nil {
		e.After = assetFileToPB(*after)
	}
	return e
}

// checkFileName: 1 to 255 characters, no path separator, no control or format character (a file
// name ends up in Content-Disposition headers and on people's disks).
func checkFileName(v apierr.Validator, name string) {
	for _, r := range name {
		if r == '/' || r == '\\' || unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
			v.Add("fileName", "must not contain a path separator (/ or \\) or control characters")
			return
		}
	}
	if name == "." || name == ".." {
		v.Add("fileName", "must be a file name, not . or ..")
	}
}

func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// objectKey is where a file's bytes live in the blob store.
func objectKey(tenant string, asset, file uuid.UUID) string {
	h := sha256.Sum256([]byte(tenant))
	return "tenants/" + hex.EncodeToString(h[:16]) + "/assets/" + asset.String() + "/" + file.String()
}

// StagingKey is where an upload URL writes a file's bytes until complete moves them to key (the
// blob collector removes both keys of a failed or deleted file: migration 0018).
func StagingKey(key string) string { return key + ".upload" }

// AssetFileServer implements catalog.v1.AssetFileService.
type AssetFileServer struct {
	pb.UnimplementedAssetFileServiceServer
	*Service
}

// storage is the configured blob store; a Service without one (a test wiring only the catalog)
// answers asset-file operations with 503.
func (s *AssetFileServer) storage() (FileStorage, error) {
	fs := s.Files
	if fs.Store == nil {
		return fs, apierr.New(apierr.Unavailable, "asset file storage is not configured")
	}
	if fs.UploadTTL <= 0 {
		fs.UploadTTL = DefaultUploadTTL
	}
	if fs.DownloadTTL <= 0 {
		fs.DownloadTTL = DefaultDownloadTTL
	}
	return fs, nil
}

// ListAssetFiles lists an asset's files (no download URLs: a get signs one).
func (s *AssetFileServer) ListAssetFiles(ctx context.Context, req *pb.ListAssetFilesRequest) (*pb.ListAssetFilesResponse, error) {
	sc := s.assetScope(ctx, req.AssetUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	out, page, err := listAs(ctx, s.Service, AssetFileList, req, assetFileToPB, list.Eq("asset_uuid", sc.Parent))
	return &pb.ListAssetFilesResponse{Items: out, Pagination: page}, err
}

// GetAssetFile returns a file with a downloadUrl signed for DownloadTTL when it is uploaded.
func (s *AssetFileServer) GetAssetFile(ctx context.Context, req *pb.GetAssetFileRequest) (*pb.GetAssetFileResponse, error) {
	fs, err := s.storage()
	if err != nil {
		return nil, err
	}
	f, err := assetFiles.Get(ctx, s.DB, s.assetScope(ctx, req.AssetUuid), req.FileUuid)
	if err != nil {
		return nil, err
	}
	m := assetFileToPB(f)
	m.Etag = etag.Of(m) // the file's tag: the signed download URL, new at every read, is no part of it
	if f.Status == "uploaded" {
		u, _, err := fs.Store.SignedDownloadAs(f.StorageKey, f.FileName, fs.DownloadTTL)
		if err != nil {
			return nil, err
		}
		m.DownloadUrl = &u
	}
	return &pb.GetAssetFileResponse{File: m}, nil
}

// DeleteAssetFile deletes a file (an original with its renditions) and queues its objects for
// deletion.
func (s *AssetFileServer) DeleteAssetFile(ctx context.Context, req *pb.DeleteAssetFileRequest) (*pb.DeleteAssetFileResponse, error) {
	return &pb.DeleteAssetFileResponse{}, assetFiles.Delete(ctx, s.DB, s.assetScope(ctx, req.AssetUuid), req.FileUuid)
}

// InitiateAssetFileUpload starts one upload on the path's asset.
func (s *AssetFileServer) InitiateAssetFileUpload(ctx context.Context, req *pb.InitiateAssetFileUploadRequest) (*pb.InitiateAssetFileUploadResponse, error) {
	sc := s.assetScope(ctx, req.AssetUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	in := orNew(req.Upload)
	if in.AssetUuid != "" && !strings.EqualFold(in.AssetUuid, sc.Parent.String()) {
		return nil, apierr.Field("assetUuid", "must be absent or the asset of the path")
	}
	out, err := s.initiate(ctx, []*pb.AssetFileUploadInitiate{in}, []uuid.UUID{sc.Parent}, true)
	if err != nil {
		return nil, err
	}
	return &pb.InitiateAssetFileUploadResponse{Upload: out[0]}, nil
}

// BulkInitiateAssetFileUploads starts 1 to 100 uploads, each on the asset its item names.
func (s *AssetFileServer) BulkInitiateAssetFileUploads(ctx context.Context, req *pb.BulkInitiateAssetFileUploadsRequest) (*pb.BulkInitiateAssetFileUploadsResponse, error) {
	v := apierr.NewValidator()
	assetIDs := make([]uuid.UUID, len(req.Items))
	for i, it := range req.Items {
		if it.GetAssetUuid() == "" {
			v.Item(i).Add("assetUuid", "is required")
			continue
		}
		assetIDs[i] = uuid.MustParse(it.GetAssetUuid()) // the request rules checked the format
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	out, err := s.initiate(ctx, req.Items, assetIDs, false)
	return &pb.BulkInitiateAssetFileUploadsResponse{Items: out}, err
}

// initiate inserts pending files for items (asset i: assets[i]) and signs their upload URLs, in one
// transaction (a bulk is all or nothing).
func (s *AssetFileServer) initiate(ctx context.Context, items []*pb.AssetFileUploadInitiate, assets []uuid.UUID, single bool) ([]*pb.AssetFileUpload, error) {
	fs, err := s.storage()
	if err != nil {
		return nil, err
	}
	v := apierr.NewValidator()
	for i, it := range items {
		vi := v
		if !single {
			vi = v.Item(i)
		}
		if assetFiles.CheckCreate(vi, it); it.GetSizeBytes() > fs.Store.MaxUploadBytes() {
			vi.Add("sizeBytes", "must be at most %d bytes (the service's upload limit)", fs.Store.MaxUploadBytes())
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	n := len(items)
	ids := make([]uuid.UUID, n)
	p := db.InsertAssetFilesParams{TenantID: tenant, Uuids: ids, AssetUuids: assets,
		Kinds: make([]string, n), FileNames: make([]string, n), ContentTypes: make([]string, n), Sizes: make([]int64, n),
		Checksums: make([]string, n), HasChecksums: make([]bool, n), StorageKeys: make([]string, n), ExpiresAts: make([]time.Time, n)}
	uploads := make([]blobstore.Upload, n)
	for i, it := range items {
		ids[i] = uuid.Must(uuid.NewV7())
		p.Kinds[i] = crud.EnumName(it.GetKind())
		p.FileNames[i] = it.GetFileName()
		p.ContentTypes[i], _ = blobstore.CanonicalContentType(it.GetContentType())
		p.Sizes[i] = it.GetSizeBytes()
		if it.ChecksumSha256 != nil {
			p.Checksums[i], p.HasChecksums[i] = strings.ToLower(it.GetChecksumSha256()), true
		}
		p.StorageKeys[i] = objectKey(tenant, assets[i], ids[i])
		if uploads[i], err = fs.Store.SignedUpload(StagingKey(p.StorageKeys[i]), p.ContentTypes[i], p.Sizes[i], p.Checksums[i], fs.UploadTTL); err != nil {
			return nil, err
		}
		p.ExpiresAts[i] = uploads[i].ExpiresAt // the instant its URL stops working
	}
	var rows []db.AssetFile
	err = crud.Write(ctx, s.DB, crud.Scope{}, func(t *crud.Tx) error {
		p.Now = t.Now
		if !single {
			ptrs := make([]*uuid.UUID, n)
			for i := range assets {
				ptrs[i] = &assets[i]
			}
			if err := crud.RequireExisting(ctx, t, "assets", "assetUuid", ptrs); err != nil {
				return err
			}
		}
		var err error
		if rows, err = t.Q.InsertAssetFiles(ctx, p); err != nil {
			if code, _ := store.PgCode(err); code == store.ForeignKeyViolation {
				return apierr.NotFoundf("asset", assets[0].String()) // deleted since the scope was read
			}
			return err
		}
		for _, r := range rows {
			t.Emit(AssetFileEvent("created", nil, &r))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]db.AssetFile, len(rows))
	for _, r := range rows {
		byID[r.Uuid] = r
	}
	out := make([]*pb.AssetFileUpload, n)
	for i, id := range ids {
		out[i] = &pb.AssetFileUpload{File: assetFileToPB(byID[id]), UploadUrl: uploads[i].URL, UploadMethod: uploads[i].Method,
			UploadHeaders: uploads[i].Headers, ExpiresAt: timestamppb.New(uploads[i].ExpiresAt)}
	}
	return out, nil
}

// CompleteAssetFileUpload completes one upload.
func (s *AssetFileServer) CompleteAssetFileUpload(ctx context.Context, req *pb.CompleteAssetFileUploadRequest) (*pb.CompleteAssetFileUploadResponse, error) {
	sc := s.assetScope(ctx, req.AssetUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	id, err := assetFiles.ParseID(req.FileUuid)
	if err != nil {
		return nil, err
	}
	out, err := s.complete(ctx, []uuid.UUID{sc.Parent}, []uuid.UUID{id}, []string{req.FileUuid}, true)
	if err != nil {
		return nil, err
	}
	return &pb.CompleteAssetFileUploadResponse{File: out[0]}, nil
}

// BulkCompleteAssetFileUploads completes 1 to 100 uploads: all of them or none.
func (s *AssetFileServer) BulkCompleteAssetFileUploads(ctx context.Context, req *pb.BulkCompleteAssetFileUploadsRequest) (*pb.BulkCompleteAssetFileUploadsResponse, error) {
	assets := make([]uuid.UUID, len(req.Items))
	files := make([]uuid.UUID, len(req.Items))
	raw := make([]string, len(req.Items))
	seen := map[uuid.UUID]int{}
	v := apierr.NewValidator()
	for i, it := range req.Items {
		assets[i], files[i], raw[i] = uuid.MustParse(it.GetAssetUuid()), uuid.MustParse(it.GetFileUuid()), it.GetFileUuid()
		if j, dup := seen[files[i]]; dup {
			v.Item(i).Add("fileUuid", "is also item %d: name each file once", j)
		}
		seen[files[i]] = i
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	out, err := s.complete(ctx, assets, files, raw, false)
	return &pb.BulkCompleteAssetFileUploadsResponse{Items: out}, err
}

// verdict is the outcome of checking one pending file's object.
type verdict struct {
	failField, failReason string // set when the check failed
	checksum              string
	width, height         *int32
	renditions            bool // an image original catalogd can make renditions of
}

// complete checks and records the completion of files (file i on asset assets[i]).
func (s *AssetFileServer) complete(ctx context.Context, assets, files []uuid.UUID, raw []string, single bool) ([]*pb.AssetFile, error) {
	fs, err := s.storage()
	if err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	current, err := s.DB.Q.ListAssetFilesByUuids(ctx, db.ListAssetFilesByUuidsParams{TenantID: tenant, Uuids: files})
	if err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]db.AssetFile, len(current))
	for _, f := range current {
		byID[f.Uuid] = f
	}
	// 404 before any blob is read: unknown files, or files of another asset.
	for i, id := range files {
		if f, ok := byID[id]; !ok || f.AssetUuid != assets[i] {
			e := apierr.NotFoundf("asset file", raw[i])
			if !single {
				e = e.WithField(crud.FieldName("fileUuid", i, false), "no such file on this asset")
			}
			return nil, e
		}
	}
	// The checks read the blob store: outside the transaction, and only for pending files.
	verdicts := make(map[uuid.UUID]verdict, len(files))
	now := store.NowFor(ctx)
	for _, id := range files {
		if f := byID[id]; f.Status == "pending" {
			if verdicts[id], err = s.check(ctx, fs, f, now); err != nil {
				return nil, err
			}
		}
	}
	var result []db.AssetFile
	var refusal *apierr.Error
	err = crud.Write(ctx, s.DB, crud.Scope{}, func(t *crud.Tx) error {
		rows, err := t.Q.LockAssetFiles(ctx, db.LockAssetFilesParams{TenantID: t.Tenant, Uuids: files})
		if err != nil {
			return err
		}
		locked := make(map[uuid.UUID]db.AssetFile, len(rows))
		for _, r := range rows {
			locked[r.Uuid] = r
		}
		var done, failed []uuid.UUID
		var failReasons []string
		refusal = nil
		for i, id := range files {
			f, ok := locked[id]
			if !ok || f.AssetUuid != assets[i] {
				return apierr.NotFoundf("asset file", raw[i]) // deleted meanwhile
			}
			switch f.Status {
			case "uploaded":
				continue // completed already (by this request's retry, or a concurrent one)
			case "failed":
				e := apierr.New(apierr.InvalidTransition, "asset file %s failed (%s): initiate a new upload", raw[i], deref(f.FailureReason)).
					WithMeta("currentStatus", "failed").WithMeta("allowedTransitions", []string{}).WithMeta("transition", "complete-upload")
				if !single {
					e = e.WithField(crud.FieldName("fileUuid", i, false), "the file failed: initiate a new upload")
				}
				return e
			}
			vd, checked := verdicts[id]
			if !checked { // was uploaded or failed when read, and pending now: cannot happen (no move back)
				return fmt.Errorf("asset file %s: status went back to pending", id)
			}
			if vd.failReason != "" {
				failed, failReasons = append(failed, id), append(failReasons, vd.failReason)
				if refusal == nil {
					refusal = apierr.New(apierr.UploadVerificationFailed, "%s", vd.failReason)
				}
				refusal.WithField(crud.FieldName(vd.failField, i, single), vd.failReason)
				continue
			}
			done = append(done, id)
		}
		if len(failed) > 0 {
			rows, err := t.Q.MarkAssetFilesFailed(ctx, db.MarkAssetFilesFailedParams{TenantID: t.Tenant, Now: t.Now, Uuids: failed, Reasons: failReasons})
			if err != nil {
				return err
			}
			for _, r := range rows {
				was := locked[r.Uuid]
				t.Emit(AssetFileEvent("failed", &was, &r))
			}
			if !single && len(failed) < len(files) {
				refusal.Detail = fmt.Sprintf("%d of %d uploads failed verification and are now failed; none was completed: %s",
					len(failed), len(files), refusal.Detail)
			}
			return nil // the failures commit; the 409 is returned after
		}
		if len(done) > 0 {
			p := db.MarkAssetFilesUploadedParams{TenantID: t.Tenant, Now: t.Now, Uuids: done,
				Checksums: make([]string, len(done)), Widths: make([]int32, len(done)), Heights: make([]int32, len(done))}
			var jobs []uuid.UUID
			for i, id := range done {
				vd := verdicts[id]
				p.Checksums[i] = vd.checksum
				// sqlc types the unnest arrays as int32; 0 stands for "not an image" (a real image
				// has at least one pixel a side) and is stored as null below.
				if vd.width != nil {
					p.Widths[i], p.Heights[i] = *vd.width, *vd.height
				}
				if vd.renditions {
					jobs = append(jobs, id)
				}
			}
			rows, err := t.Q.MarkAssetFilesUploaded(ctx, p)
			if err != nil {
				return err
			}
			if len(rows) != len(done) {
				return fmt.Errorf("asset files: %d of %d pending files updated under lock", len(rows), len(done))
			}
			for _, r := range rows {
				was, now := locked[r.Uuid], db.AssetFile(r)
				t.Emit(AssetFileEvent("uploaded", &was, &now))
			}
			if len(jobs) > 0 {
				if err := t.Q.EnqueueRenditionJobs(ctx, db.EnqueueRenditionJobsParams{TenantID: t.Tenant, Now: t.Now, FileUuids: jobs}); err != nil {
					return err
				}
			}
		}
		if result, err = t.Q.ListAssetFilesByUuids(ctx, db.ListAssetFilesByUuidsParams{TenantID: t.Tenant, Uuids: files}); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if refusal != nil {
		return nil, refusal
	}
	out := make(map[uuid.UUID]*pb.AssetFile, len(result))
	for _, r := range result {
		out[r.Uuid] = assetFileToPB(r)
	}
	return mapSlice(files, func(id uuid.UUID) *pb.AssetFile { return out[id] }), nil
}

// check compares a pending file's stored object with what initiate declared.
func (s *AssetFileServer) check(ctx context.Context, fs FileStorage, f db.AssetFile, now time.Time) (verdict, error) {
	if f.UploadExpiresAt != nil && !now.Before(*f.UploadExpiresAt) {
		return verdict{failField: "fileUuid", failReason: "the upload expired at " + f.UploadExpiresAt.UTC().Format(time.RFC3339) + " before it was completed"}, nil
	}
	// The staging object becomes the file's object first, then the object is checked: no PUT can
	// change it after this point. A staging object that is missing was moved by an earlier
	// complete of this file (whose transaction did not commit, or which runs concurrently), or
	// never uploaded; the key's own object says which.
	if err := fs.Store.Move(ctx, StagingKey(f.StorageKey), f.StorageKey); err != nil && !blobstore.IsNotFound(err) {
		return verdict{}, err
	}
	info, exists, err := fs.Store.Stat(ctx, f.StorageKey)
	if err != nil {
		return verdict{}, err
	}
	if !exists {
		return verdict{failField: "fileUuid", failReason: "no object was uploaded to the upload URL"}, nil
	}
	if info.Size != f.SizeBytes {
		return verdict{failField: "sizeBytes", failReason: fmt.Sprintf("the uploaded object has %d bytes, %d were declared", info.Size, f.SizeBytes)}, nil
	}
	sum := info.SHA256
	if sum == "" {
		if sum, err = fs.Store.Checksum(ctx, f.StorageKey); err != nil {
			return verdict{}, err
		}
	}
	if f.ChecksumSha256 != nil && *f.ChecksumSha256 != sum {
		return verdict{failField: "checksumSha256", failReason: "the uploaded object's SHA-256 is " + sum + ", " + *f.ChecksumSha256 + " was declared"}, nil
	}
	vd := verdict{checksum: sum}
	if f.SizeBytes == 0 {
		return vd, nil
	}
	// Pixel size of an image: its header only (renditions.Probe reads at most 1 MiB and decodes no
	// pixel). Any file may be an image whatever its declared type; what is not one stays without.
	r, err := fs.Store.NewReader(ctx, f.StorageKey)
	if err != nil {
		return verdict{}, err
	}
	defer r.Close()
	pi, err := renditions.Probe(r, renditions.Limits{})
	switch {
	case err == nil:
		vd.renditions = f.Kind == "original"
	case errors.Is(err, renditions.ErrTooLarge):
		// The original stays without renditions (API.md: images above 100 megapixels).
	case errors.Is(err, renditions.ErrUnsupported), errors.Is(err, renditions.ErrCorrupt):
		return vd, nil
	default:
		return verdict{}, err
	}
	if pi.Width > 0 && pi.Height > 0 {
		w, h := int32(pi.Width), int32(pi.Height)
		vd.width, vd.height = &w, &h
	}
	return vd, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
