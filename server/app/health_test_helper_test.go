package app

import (
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

func healthDesc() *grpc.ServiceDesc { return &healthpb.Health_ServiceDesc }
