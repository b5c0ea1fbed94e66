package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/blobstore"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/transfer"
)

// newJobs is what the import and export services and workers share: the line types of the
// catalog's families (catalog.TransferKinds), their exporter, and the blob store for the files.
func newJobs(d *store.DB, blobs *blobstore.Store, cfg Config) *transfer.Jobs {
	return &transfer.Jobs{DB: d, Files: blobs, Importer: transfer.NewImporter(d, catalog.TransferKinds()),
		Export:      transfer.NewExporter(d, catalog.TransferKinds(), catalog.ProductList).Func(),
		UploadTTL:   orDefault(cfg.UploadURLTTL, catalog.DefaultUploadTTL),
		DownloadTTL: orDefault(cfg.DownloadURLTTL, catalog.DefaultDownloadTTL), MaxImportBytes: cfg.MaxImportBytes,
		Analyze: catalog.TransferGrowing}
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// transferServices registers imports and exports.
func transferServices(d Deps) []Service {
	if d.Jobs == nil { // no storage (tests of the routes and documents): the operations answer 503
		d.Jobs = &transfer.Jobs{DB: d.DB}
	}
	return []Service{
		{&pb.ImportService_ServiceDesc, &transfer.ImportServer{Jobs: d.Jobs}, gateway(pb.RegisterImportServiceHandlerClient, pb.NewImportServiceClient)},
		{&pb.ExportService_ServiceDesc, &transfer.ExportServer{Jobs: d.Jobs, ProductList: catalog.ProductList}, gateway(pb.RegisterExportServiceHandlerClient, pb.NewExportServiceClient)},
	}
}

// transferListSpecs pairs their list requests with their specs.
func transferListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListImportsRequest{}:     transfer.ImportList,
		&pb.ListImportLinesRequest{}: transfer.ImportLineList,
		&pb.ListExportsRequest{}:     transfer.ExportList,
	}
}
