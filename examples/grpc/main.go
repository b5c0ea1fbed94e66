// Command grpc is the README's gRPC example: with the Go SDK (gen/catalog/v1, the buf-generated gRPC
// clients) it creates an attribute over gRPC and lists the attributes of that code.
//
//	go run ./examples/grpc -addr localhost:9090 -token "$TOKEN" -code grpc-1
//
// test/tour runs it as the README shows it, twice in one tenant (TestReadmePasted).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
)

func main() {
	addr := flag.String("addr", "localhost:9090", "catalogd's gRPC address")
	token := flag.String("token", "", "a bearer token, e.g. from ./bin/catalogd token")
	code := flag.String("code", "grpc-example", "the new attribute's code")
	flag.Parse()
	log.SetFlags(0)

	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	// The token goes with every call as the authorization metadata.
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+*token)
	attributes := catalogv1.NewAttributeServiceClient(conn)

	created, err := attributes.CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{
		Attribute: &catalogv1.AttributeCreate{Code: *code},
	})
	if err != nil {
		log.Fatal(err) // a gRPC status: AlreadyExists when the code is taken, Unauthenticated without a token, …
	}
	a := created.GetAttribute()
	fmt.Printf("created %s (%s) %s\n", a.GetCode(), a.GetStatus(), a.GetUuid())

	page, err := attributes.ListAttributes(ctx, &catalogv1.ListAttributesRequest{
		Codes: &catalogv1.StringsFilter{Eq: []string{*code}},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range page.GetItems() {
		fmt.Printf("listed %s (%s) %s\n", a.GetCode(), a.GetStatus(), a.GetUuid())
	}
}
