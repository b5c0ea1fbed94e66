package assetfiles

import (
	"bytes"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

// The upload flow over gRPC with the generated client: initiate (single and bulk), transfer,
// complete (single and bulk), get with its download URL, list, delete, and the errors' codes.
func TestGRPC(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	ctx := GRPCContext(t, tenant)
	a := mkAsset(t, c)
	log := NewEventLog(pool, tenant).Skip(t)
	fc := pb.NewAssetFileServiceClient(env.GRPC)
	data := []byte("grpc bytes")
	sum := sha(data)

	ini, err := fc.InitiateAssetFileUpload(ctx, &pb.InitiateAssetFileUploadRequest{AssetUuid: a, Upload: &pb.AssetFileUploadInitiate{
		Kind: pb.AssetFileKind_ASSET_FILE_KIND_ORIGINAL, FileName: "g.txt", ContentType: "text/plain", SizeBytes: proto.Int64(int64(len(data))), ChecksumSha256: proto.String(sum)}})
	if err != nil {
		t.Fatal(err)
	}
	up := ini.Upload
	f := up.File
	if f.Status != pb.AssetFileStatus_ASSET_FILE_STATUS_PENDING || f.AssetUuid != a || f.FileName != "g.txt" || f.GetChecksumSha256() != sum ||
		f.DownloadUrl != nil || f.Width != nil || !UUIDRe.MatchString(f.Uuid) || up.UploadMethod != "PUT" ||
		up.UploadHeaders["Content-Type"] != "text/plain" || !up.ExpiresAt.AsTime().Equal(f.UploadExpiresAt.AsTime()) {
		t.Errorf("initiate: %v", up)
	}
	log.Expect(t, "initiate", fileEv("created", a, f.Uuid))
	wantStatus(t, "transfer", send(t, up.UploadMethod, up.UploadUrl, up.UploadHeaders, bytes.NewReader(data), int64(len(data))), 200)

	done, err := fc.CompleteAssetFileUpload(ctx, &pb.CompleteAssetFileUploadRequest{AssetUuid: a, FileUuid: f.Uuid})
	if err != nil {
		t.Fatal(err)
	}
	if done.File.Status != pb.AssetFileStatus_ASSET_FILE_STATUS_UPLOADED || done.File.GetChecksumSha256() != sum || done.File.SizeBytes != int64(len(data)) {
		t.Errorf("complete: %v", done.File)
	}
	log.Expect(t, "complete", fileEv("uploaded", a, f.Uuid))

	got, err := fc.GetAssetFile(ctx, &pb.GetAssetFileRequest{AssetUuid: a, FileUuid: f.Uuid})
	if err != nil {
		t.Fatal(err)
	}
	if r := fetch(t, got.File.GetDownloadUrl()); r.Status != 200 || !bytes.Equal(r.Body, data) {
		t.Errorf("download of %q: %d %q", got.File.GetDownloadUrl(), r.Status, r.Body)
	}

	// Bulk: one item transferred, one not: the bulk complete fails that one and names its index.
	bulk, err := fc.BulkInitiateAssetFileUploads(ctx, &pb.BulkInitiateAssetFileUploadsRequest{Items: []*pb.AssetFileUploadInitiate{
		{AssetUuid: a, Kind: pb.AssetFileKind_ASSET_FILE_KIND_THUMBNAIL, FileName: "t.txt", ContentType: "text/plain", SizeBytes: proto.Int64(int64(len(data)))},
		{AssetUuid: a, Kind: pb.AssetFileKind_ASSET_FILE_KIND_ORIGINAL, FileName: "u.txt", ContentType: "text/plain", SizeBytes: proto.Int64(3)},
	}})
	if err != nil || len(bulk.Items) != 2 || bulk.Items[0].File.FileName != "t.txt" || bulk.Items[1].File.FileName != "u.txt" {
		t.Fatalf("bulk initiate: %v %v", bulk, err)
	}
	b0, b1 := bulk.Items[0], bulk.Items[1]
	wantStatus(t, "transfer", send(t, "PUT", b0.UploadUrl, b0.UploadHeaders, bytes.NewReader(data), int64(len(data))), 200)
	log.Skip(t)
	_, err = fc.BulkCompleteAssetFileUploads(ctx, &pb.BulkCompleteAssetFileUploadsRequest{Items: []*pb.AssetFileUploadComplete{
		{AssetUuid: a, FileUuid: b0.File.Uuid}, {AssetUuid: a, FileUuid: b1.File.Uuid}}})
	WantGRPC(t, "bulk complete with a missing object", err, codes.FailedPrecondition, "UPLOAD_VERIFICATION_FAILED", "[1].fileUuid")
	log.Expect(t, "the failed item", fileEv("failed", a, b1.File.Uuid))
	bc, err := fc.BulkCompleteAssetFileUploads(ctx, &pb.BulkCompleteAssetFileUploadsRequest{Items: []*pb.AssetFileUploadComplete{{AssetUuid: a, FileUuid: b0.File.Uuid}}})
	if err != nil || len(bc.Items) != 1 || bc.Items[0].Status != pb.AssetFileStatus_ASSET_FILE_STATUS_UPLOADED {
		t.Errorf("bulk complete: %v %v", bc, err)
	}
	_, err = fc.CompleteAssetFileUpload(ctx, &pb.CompleteAssetFileUploadRequest{AssetUuid: a, FileUuid: b1.File.Uuid})
	WantGRPC(t, "complete a failed file", err, codes.FailedPrecondition, "INVALID_TRANSITION")

	list, err := fc.ListAssetFiles(ctx, &pb.ListAssetFilesRequest{AssetUuid: a, Statuses: &pb.StringsFilter{Eq: []string{"uploaded"}},
		OrderBy: []*pb.OrderBy{{Field: "fileName", Direction: pb.SortDirection_SORT_DIRECTION_DESC}}})
	if err != nil || len(list.Items) != 2 || list.Items[0].Uuid != b0.File.Uuid || list.Items[1].Uuid != f.Uuid || list.Items[0].DownloadUrl != nil {
		t.Errorf("list: %v %v", list, err)
	}

	_, err = fc.InitiateAssetFileUpload(ctx, &pb.InitiateAssetFileUploadRequest{AssetUuid: a, Upload: &pb.AssetFileUploadInitiate{
		Kind: pb.AssetFileKind_ASSET_FILE_KIND_ORIGINAL, FileName: "a/b", ContentType: "text/plain", SizeBytes: proto.Int64(1)}})
	WantGRPC(t, "bad file name", err, codes.InvalidArgument, "VALIDATION_FAILED", "fileName")
	_, err = fc.InitiateAssetFileUpload(ctx, &pb.InitiateAssetFileUploadRequest{AssetUuid: a, Upload: &pb.AssetFileUploadInitiate{
		FileName: "a.txt", ContentType: "text/plain", SizeBytes: proto.Int64(1)}})
	WantGRPC(t, "no kind", err, codes.InvalidArgument, "VALIDATION_FAILED", "kind")
	_, err = fc.GetAssetFile(ctx, &pb.GetAssetFileRequest{AssetUuid: a, FileUuid: UnknownUUID})
	WantGRPC(t, "unknown file", err, codes.NotFound, "NOT_FOUND")

	log.Skip(t)
	if _, err := fc.DeleteAssetFile(ctx, &pb.DeleteAssetFileRequest{AssetUuid: a, FileUuid: f.Uuid}); err != nil {
		t.Fatal(err)
	}
	log.Expect(t, "delete", fileEv("deleted", a, f.Uuid))
	_, err = fc.GetAssetFile(ctx, &pb.GetAssetFileRequest{AssetUuid: a, FileUuid: f.Uuid})
	WantGRPC(t, "get deleted", err, codes.NotFound, "NOT_FOUND")
}
