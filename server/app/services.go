package app

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/history"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/transfer"
	"github.com/catalogd/catalogd/server/webhooks"
)

// Service is one gRPC service of the API with its REST gateway registration.
type Service struct {
	Desc    *grpc.ServiceDesc
	Impl    any
	Gateway func(context.Context, *runtime.ServeMux, grpc.ClientConnInterface) error
}

// gateway is a service's REST registration on a connection: the generated client of the service
// (newClient) on conn, its routes on the mux (register).
func gateway[C any](register func(context.Context, *runtime.ServeMux, C) error, newClient func(grpc.ClientConnInterface) C) func(context.Context, *runtime.ServeMux, grpc.ClientConnInterface) error {
	return func(ctx context.Context, mux *runtime.ServeMux, conn grpc.ClientConnInterface) error {
		return register(ctx, mux, newClient(conn))
	}
}

// Deps are what the services are built on.
type Deps struct {
	DB    *store.DB
	Box   *webhooks.Box
	Guard webhooks.Guard
	// Files is the asset files' blob storage (zero: their operations answer 503).
	Files catalog.FileStorage
	// Jobs are the import and export jobs' (nil: their operations answer 503).
	Jobs *transfer.Jobs
}

// Services lists every API service. Groups of families register in their own files
// (services_<group>.go) so that each group's wiring stays beside its list specs.
func Services(d Deps) []Service {
	c := catalog.New(d.DB)
	c.Files = d.Files
	out := coreServices(d, c)
	for _, g := range groups {
		out = append(out, g.services(c)...)
	}
	return append(out, transferServices(d)...)
}

// group is a set of families registered together.
type group struct {
	services  func(c *catalog.Service) []Service
	listSpecs func() map[proto.Message]*list.Spec
}

// groups are the family groups beyond the core (in registration order).
var groups = []group{
	{structureBasicServices, structureBasicListSpecs},
	{hierarchyServices, hierarchyListSpecs},
	{inputServices, inputListSpecs},
	{familyServices, familyListSpecs},
	{productServices, productListSpecs},
	{productAttributeServices, productAttributeListSpecs},
	{productValueServices, productValueListSpecs},
	{publicationServices, publicationListSpecs},
	{productRelationServices, productRelationListSpecs},
	{scheduleServices, scheduleListSpecs},
	{assetServices, assetListSpecs},
}

func coreServices(d Deps, c *catalog.Service) []Service {
	return []Service{
		{&pb.WebhookEventTypeService_ServiceDesc, &webhooks.EventTypeService{DB: d.DB}, gateway(pb.RegisterWebhookEventTypeServiceHandlerClient, pb.NewWebhookEventTypeServiceClient)},
		{&pb.EventService_ServiceDesc, &events.Service{DB: d.DB}, gateway(pb.RegisterEventServiceHandlerClient, pb.NewEventServiceClient)},
		{&pb.HistoryService_ServiceDesc, &history.Service{DB: d.DB, Spec: historyList, Product: productHistoryList, Types: historyTypes}, gateway(pb.RegisterHistoryServiceHandlerClient, pb.NewHistoryServiceClient)},
		{&pb.WebhookSubscriptionService_ServiceDesc, &webhooks.Service{DB: d.DB, Box: d.Box, Guard: d.Guard}, gateway(pb.RegisterWebhookSubscriptionServiceHandlerClient, pb.NewWebhookSubscriptionServiceClient)},
		{&pb.LocaleService_ServiceDesc, &catalog.LocaleServer{Service: c}, gateway(pb.RegisterLocaleServiceHandlerClient, pb.NewLocaleServiceClient)},
		{&pb.AttributeService_ServiceDesc, &catalog.AttributeServer{Service: c}, gateway(pb.RegisterAttributeServiceHandlerClient, pb.NewAttributeServiceClient)},
		{&pb.AttributeContentService_ServiceDesc, &catalog.AttributeContentServer{Service: c}, gateway(pb.RegisterAttributeContentServiceHandlerClient, pb.NewAttributeContentServiceClient)},
		{&pb.AttributeTermService_ServiceDesc, &catalog.AttributeTermServer{Service: c}, gateway(pb.RegisterAttributeTermServiceHandlerClient, pb.NewAttributeTermServiceClient)},
		{&pb.AttributeTermContentService_ServiceDesc, &catalog.AttributeTermContentServer{Service: c}, gateway(pb.RegisterAttributeTermContentServiceHandlerClient, pb.NewAttributeTermContentServiceClient)},
	}
}

// ListSpecs pairs every list request type with its spec, checked at start-up.
func ListSpecs() map[proto.Message]*list.Spec {
	out := coreListSpecs()
	for _, g := range groups {
		for k, v := range g.listSpecs() {
			out[k] = v
		}
	}
	maps.Copy(out, transferListSpecs())
	return out
}

func coreListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListLocalesRequest{}:                       catalog.LocaleList,
		&pb.ListAttributesRequest{}:                    catalog.AttributeList,
		&pb.ListAttributeContentsRequest{}:             catalog.ContentList,
		&pb.ListAttributeTermsRequest{}:                catalog.AttributeTermList,
		&pb.ListAttributeTermContentsRequest{}:         catalog.ContentList,
		&pb.ListWebhookEventTypesRequest{}:             webhooks.EventTypeList,
		&pb.ListEventsRequest{}:                        events.EventList,
		&pb.ListHistoryRequest{}:                       historyList,
		&pb.ListProductHistoryRequest{}:                productHistoryList,
		&pb.ListWebhookSubscriptionsRequest{}:          webhooks.SubscriptionList,
		&pb.ListWebhookSubscriptionEventTypesRequest{}: webhooks.SubscriptionEventTypeList,
		&pb.ListWebhookDeliveriesRequest{}:             webhooks.DeliveryList,
		&pb.ListWebhookDeliveryAttemptsRequest{}:       webhooks.AttemptList,
	}
}

// historyList is the list of GET /v1/history, productHistoryList of GET
// /v1/products/{productUuid}/history.
var historyList, productHistoryList = history.List(historyTypes), history.ProductList(historyTypes)

// historyTypes are the resource types of history entries: the event catalog's resources and the
// webhook subscriptions'.
var historyTypes = slices.Sorted(slices.Values(append(events.HistoryTypes(), webhooks.HistoryTypes...)))

// eachMethod calls fn for every method of services with its full method name
// ("/catalog.v1.AttributeService/GetAttribute").
func eachMethod(services []Service, fn func(name string, m protoreflect.MethodDescriptor) error) error {
	for _, s := range services {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(s.Desc.ServiceName))
		if err != nil {
			return fmt.Errorf("service %s: %w", s.Desc.ServiceName, err)
		}
		sd := d.(protoreflect.ServiceDescriptor)
		for i := 0; i < sd.Methods().Len(); i++ {
			m := sd.Methods().Get(i)
			if err := fn("/"+string(sd.FullName())+"/"+string(m.Name()), m); err != nil {
				return err
			}
		}
	}
	return nil
}

// MethodScopes reads the (catalog.v1.required_scope) option of every method of services, keyed by
// full method name. A method without one is an error: no RPC is reachable without a declared scope.
func MethodScopes(services []Service) (map[string]string, error) {
	out := map[string]string{}
	return out, eachMethod(services, func(name string, m protoreflect.MethodDescriptor) error {
		scope, _ := proto.GetExtension(m.Options(), pb.E_RequiredScope).(string)
		if scope == "" {
			return fmt.Errorf("method %s declares no (catalog.v1.required_scope)", m.FullName())
		}
		if !knownScopes[scope] {
			return fmt.Errorf("method %s: unknown scope %q", m.FullName(), scope)
		}
		out[name] = scope
		return nil
	})
}

// ReadMethods are the API methods whose HTTP mapping is a GET (gets, lists, searches): their
// statements outside a transaction may run on a read replica (the chain marks them store.Routed).
// Every other method writes, and runs on the primary.
func ReadMethods(services []Service) (map[string]bool, error) {
	out := map[string]bool{}
	return out, eachMethod(services, func(name string, m protoreflect.MethodDescriptor) error {
		if rule, _ := proto.GetExtension(m.Options(), annotations.E_Http).(*annotations.HttpRule); rule.GetGet() != "" {
			out[name] = true
		}
		return nil
	})
}

// OwnChecks are the services' own request checks beyond the request rules (fields.Checks): the
// catalog families' body checks, the webhook target guard and the list filters. The request rules
// run them when a request breaks a rule, so that one answer lists every violation.
func OwnChecks(d Deps) fields.Checks {
	out := catalog.Checks()
	maps.Copy(out, (&webhooks.Service{Guard: d.Guard}).Checks())
	for req, spec := range ListSpecs() {
		out[req.ProtoReflect().Descriptor().FullName()] = func(v apierr.Validator, m proto.Message) {
			if _, err := spec.Build("", m); err != nil {
				for _, f := range apierr.From(err).Fields {
					v.Add(f.Field, "%s", f.Message)
				}
			}
		}
	}
	return out
}

// MethodRules compiles the request rule check ((catalog.v1.rules), fields.Request) of every method
// of services, keyed by full method name. A rule the server cannot enforce is an error: the
// service does not start with a rule it would publish but not apply.
func MethodRules(services []Service, checks fields.Checks) (map[string]*fields.Request, error) {
	out := map[string]*fields.Request{}
	return out, eachMethod(services, func(name string, m protoreflect.MethodDescriptor) error {
		rq, err := fields.NewRequest(m, checks)
		if err != nil {
			return err
		}
		out[name] = rq
		return nil
	})
}

// ScopeAuthenticated is the scope value of RPCs open to any valid token.
const ScopeAuthenticated = "authenticated"

var knownScopes = map[string]bool{"catalog:read": true, "catalog:write": true, "webhooks:read": true, "webhooks:write": true, ScopeAuthenticated: true}

// CheckListSpecs verifies that every list filter and order field has a column.
func CheckListSpecs() error {
	for req, spec := range ListSpecs() {
		if err := spec.Check(req); err != nil {
			return err
		}
	}
	return nil
}
