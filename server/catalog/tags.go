package catalog

import (
	"google.golang.org/grpc"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
)

// Tags are lightweight labels of products, localized through content entries: a code/displayName
// family with contents, declared with the generic codeNameFamily of brands.go.

// Parent kind of tag contents in the contents table.
const kindTag = "tag"

// tags is the tag family (events tag.*, payload tagUuid) and its contents (tag.content.*, tagUuid
// and tagContentUuid).
var tags = newCodeNameFamily[*pb.Tag, *pb.TagCreate, *pb.TagUpdate, *pb.TagContent, *pb.TagContentCreate, *pb.TagContentUpdate](
	kindTag, "tags", codeNameTable((*db.Queries).InsertTags, (*db.Queries).UpdateTag, (*db.Queries).GetTag, (*db.Queries).DeleteTag))

// TagList is the list spec of GET /v1/tags.
var TagList = tags.spec

// TagServices are catalog.v1.TagService and catalog.v1.TagContentService, served by the tag family.
func TagServices(s *Service) (tag, content *grpc.ServiceDesc) {
	return tags.services(s, &pb.TagService_ServiceDesc, &pb.TagContentService_ServiceDesc)
}
