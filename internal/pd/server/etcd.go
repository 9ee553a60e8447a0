package server

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/strata-db/strata/internal/kvproto"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc"
)

// etcdConfig is the embedded etcd's configuration: PD's gRPC service is
// registered on etcd's gRPC server (ServiceRegister) and PD's HTTP API on
// its HTTP mux (UserHandlers), so that one client URL serves etcd, PD's
// gRPC and PD's HTTP API, as in PD.
func (s *Server) etcdConfig() (*embed.Config, error) {
	c := s.cfg
	ec := embed.NewConfig()
	ec.Name = c.Name
	ec.Dir = c.DataDir
	var err error
	if ec.ListenClientUrls, err = parseURLs(c.ClientURLs); err != nil {
		return nil, err
	}
	if ec.AdvertiseClientUrls, err = parseURLs(c.AdvertiseClientURLs); err != nil {
		return nil, err
	}
	if ec.ListenPeerUrls, err = parseURLs(c.PeerURLs); err != nil {
		return nil, err
	}
	if ec.AdvertisePeerUrls, err = parseURLs(c.AdvertisePeerURLs); err != nil {
		return nil, err
	}
	ec.InitialCluster = c.InitialCluster
	ec.InitialClusterToken = "strata-pd"
	ec.ClusterState = embed.ClusterStateFlagNew
	ec.EnableGRPCGateway = false
	ec.AutoCompactionMode = embed.CompactorModePeriodic
	ec.AutoCompactionRetention = "1h"
	ec.LogLevel = "warn"
	level := zapcore.WarnLevel
	if c.EtcdDebug {
		ec.LogLevel, level = "debug", zapcore.DebugLevel
	}
	ec.ZapLoggerBuilder = embed.NewZapLoggerBuilder(etcdLogger(c.Logger, level))
	ec.ServiceRegister = func(gs *grpc.Server) { pdpb.RegisterPDServer(gs, &grpcService{s}) }
	// etcd's gRPC server serves PD's RPCs, so it gets the static windows
	// of every Strata connection: with gRPC's default dynamic window it
	// sent a PING and a WINDOW_UPDATE ahead of nearly every TSO answer.
	ec.GRPCAdditionalServerOptions = kvproto.ServerWindows()
	ec.EnablePprof = true // Go's profiles under /debug/pprof/, as PD serves them
	h := s.httpHandler()
	ec.UserHandlers = map[string]http.Handler{
		"/pd/api/v1/": h,
		"/status":     h,
		"/metrics":    h,
	}
	return ec, nil
}

func parseURLs(ss []string) ([]url.URL, error) {
	out := make([]url.URL, 0, len(ss))
	for _, s := range ss {
		u, err := ParseURL(s)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadConfig, err)
		}
		out = append(out, *u)
	}
	return out, nil
}
