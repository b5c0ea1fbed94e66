package list

import "google.golang.org/protobuf/proto"

// ForgeCursor makes a cursor with a valid tag for req at the given position, as anyone who reads
// catalogd's source can: the database must still refuse a position it cannot read.
func ForgeCursor(req proto.Message, key []*string) string {
	return encodeCursor(queryHash(req.ProtoReflect(), "t1"), &position{Page: 2, Total: 1, Key: key})
}
