package transfer

import (
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/etag"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// ExportServer implements catalog.v1.ExportService.
type ExportServer struct {
	pb.UnimplementedExportServiceServer
	*Jobs
	// ProductList is the spec of GET /v1/products, whose filters an export's productFilter are.
	ProductList *list.Spec
}

// exportFileName is the name an export downloads as.
func exportFileName(r db.Export) string {
	name := "catalog-export-" + r.Uuid.String() + "." + r.Format
	if r.Gzip {
		name += ".gz"
	}
	return name
}

func exportToPB(r db.Export) *pb.Export {
	m := &pb.Export{Uuid: r.Uuid.String(), CreatedAt: timestamppb.New(r.CreatedAt), UpdatedAt: timestamppb.New(r.UpdatedAt),
		Format: enumOf[pb.ExportFormat](r.Format), Types: r.Types, Gzip: r.Gzip,
		Status:    enumOf[pb.ExportStatus](r.Status),
		ItemCount: r.ItemCount, SizeBytes: r.SizeBytes, ChecksumSha256: r.ChecksumSha256,
		StartedAt: ts(r.StartedAt), FinishedAt: ts(r.FinishedAt), FailureReason: r.FailureReason}
	if len(r.ProductFilter) > 0 {
		m.ProductFilter = &pb.ProductFilter{}
		_ = (jsonpb.Marshaler{}).Unmarshal(r.ProductFilter, m.ProductFilter)
	}
	m.Etag = etag.Of(m) // the export's tag: the signed download URL, new at every read, is no part of it
	return m
}

// ProductsRequest is the GET /v1/products request of an export's product filter: each of the
// filter's fields is the `[eq]` of the list filter of the same name.
func ProductsRequest(f *pb.ProductFilter) *pb.ListProductsRequest {
	req := &pb.ListProductsRequest{}
	if f == nil {
		return req
	}
	dst := req.ProtoReflect()
	f.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		to := dst.Descriptor().Fields().ByName(fd.Name())
		if to == nil || to.Message() == nil || to.Message().FullName() != "catalog.v1.StringsFilter" {
			return true
		}
		sf := &pb.StringsFilter{}
		for i := 0; i < v.List().Len(); i++ {
			sf.Eq = append(sf.Eq, v.List().Get(i).String())
		}
		dst.Set(to, protoreflect.ValueOfMessage(sf.ProtoReflect()))
		return true
	})
	return req
}

func (s *ExportServer) ListExports(ctx context.Context, req *pb.ListExportsRequest) (*pb.ListExportsResponse, error) {
	rows, page, err := list.Run[db.Export](ctx, s.DB, ExportList, reqctx.Tenant(ctx), req)
	if err != nil {
		return nil, err
	}
	out := make([]*pb.Export, len(rows))
	for i, r := range rows {
		out[i] = exportToPB(r)
	}
	return &pb.ListExportsResponse{Items: out, Pagination: page}, nil
}

func (s *ExportServer) exportAt(ctx context.Context, raw string) (db.Export, error) {
	return jobAt(ctx, "export", "exportUuid", raw, func(tenant string, id uuid.UUID) (db.Export, error) {
		return s.DB.Q.GetExport(ctx, db.GetExportParams{TenantID: tenant, Uuid: id})
	})
}

// GetExport answers an export, with a signed download URL once it is completed.
func (s *ExportServer) GetExport(ctx context.Context, req *pb.GetExportRequest) (*pb.GetExportResponse, error) {
	r, err := s.exportAt(ctx, req.ExportUuid)
	if err != nil {
		return nil, err
	}
	m := exportToPB(r)
	if r.Status == "completed" && s.Files != nil {
		u, _, err := s.Files.SignedDownloadAs(r.StorageKey, exportFileName(r), s.DownloadTTL)
		if err != nil {
			return nil, err
		}
		m.DownloadUrl = &u
	}
	return &pb.GetExportResponse{Export: m}, nil
}

// CreateExport queues an export.
func (s *ExportServer) CreateExport(ctx context.Context, req *pb.CreateExportRequest) (*pb.CreateExportResponse, error) {
	if _, err := s.files(); err != nil {
		return nil, err
	}
	in := req.GetExport()
	format := crud.EnumName(in.GetFormat())
	v := apierr.NewValidator()
	if format == "" {
		v.Add("format", "must be one of ndjson, csv")
	}
	known := s.Importer.Types()
	types := append([]string{}, in.GetTypes()...)
	for i, t := range types {
		if !slices.Contains(known, t) {
			v.Add(crud.FieldName("types", i, false), "unknown type %q: one of %s", t, strings.Join(known, ", "))
		}
	}
	slices.Sort(types)
	types = slices.Compact(types)
	if format == "csv" && !(len(types) == 0 || (len(types) == 1 && types[0] == "product")) {
		v.Add("types", "a CSV export has products only")
	}
	if format == "csv" {
		types = []string{"product"}
	}
	var filter []byte
	if f := in.GetProductFilter(); f != nil && proto.Size(f) > 0 {
		if s.ProductList != nil {
			if _, err := s.ProductList.Build(reqctx.Tenant(ctx), ProductsRequest(f)); err != nil {
				for _, fv := range apierr.From(err).Fields {
					v.Add("productFilter."+fv.Field, "%s", fv.Message)
				}
			}
		}
		var err error
		if filter, err = (jsonpb.Marshaler{}).Marshal(f); err != nil {
			return nil, err
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	id := uuid.Must(uuid.NewV7())
	var row db.Export
	err := crud.Write(ctx, s.DB, crud.Scope{}, func(t *crud.Tx) error {
		var err error
		row, err = t.Q.InsertExport(ctx, db.InsertExportParams{TenantID: tenant, Uuid: id, Format: format, Types: types,
			ProductFilter: filter, Gzip: in.GetGzip(), StorageKey: jobKey(tenant, "exports", id), Now: t.Now})
		return err
	})
	if err != nil {
		return nil, err
	}
	s.exportQueued.notify()
	return &pb.CreateExportResponse{Export: exportToPB(row)}, nil
}

// TransitionExport cancels a queued or running export.
func (s *ExportServer) TransitionExport(ctx context.Context, req *pb.TransitionExportRequest) (*pb.TransitionExportResponse, error) {
	cur, err := s.exportAt(ctx, req.ExportUuid)
	if err != nil {
		return nil, err
	}
	if crud.EnumName(req.GetTransition()) != "cancel" {
		return nil, apierr.Field("transition", "must be cancel")
	}
	var row db.Export
	err = crud.Write(ctx, s.DB, crud.Scope{}, func(t *crud.Tx) error {
		r, err := t.Q.LockExport(ctx, db.LockExportParams{TenantID: cur.TenantID, Uuid: cur.Uuid})
		if err != nil {
			return err
		}
		if err := etag.Check(ctx, "export", req.ExportUuid, exportToPB(r)); err != nil {
			return err
		}
		if r.Status != "queued" && r.Status != "running" {
			return apierr.New(apierr.InvalidTransition, "cannot cancel an export that is %s", r.Status).
				WithMeta("status", r.Status).WithMeta("transition", "cancel")
		}
		row, err = t.Q.CancelExport(ctx, db.CancelExportParams{TenantID: r.TenantID, Uuid: r.Uuid, Now: t.Now})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &pb.TransitionExportResponse{Export: exportToPB(row)}, nil
}

// exportEvent is the event of an export's end.
func exportEvent(verb string, id uuid.UUID) events.Event {
	return events.New("export."+verb, "exportUuid", id.String())
}
