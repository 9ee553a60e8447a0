package server

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// httpHandler serves PD's HTTP API on the client URLs (JSON):
//
//	GET  /status, /metrics
//	GET  /pd/api/v1/members, /pd/api/v1/leader       any member
//	GET  /pd/api/v1/stores, /pd/api/v1/regions,
//	     /pd/api/v1/region/id/{id}, /pd/api/v1/config,
//	     /pd/api/v1/operators                          the leader
//	POST /pd/api/v1/config, /pd/api/v1/operators       the leader
//
// A follower redirects leader-only requests to the leader (307, so a POST
// keeps its body), or answers 503 while no leader is known.
func (s *Server) httpHandler() http.Handler {
	started := time.Now()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, _ *http.Request) {
		st := map[string]any{
			"role": "pd", "version": s.cfg.Version, "name": s.cfg.Name,
			"member_id": s.memberID, "cluster_id": s.clusterID, "is_leader": s.IsLeader(),
			"client_urls": s.cfg.AdvertiseClientURLs, "uptime_seconds": time.Since(started).Seconds(),
		}
		writeJSON(w, http.StatusOK, st)
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(prometheus.Gatherers{s.metrics.reg, prometheus.DefaultGatherer}, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /pd/api/v1/members", func(w http.ResponseWriter, _ *http.Request) {
		out := MembersJSON{}
		for _, m := range s.members() {
			out.Members = append(out.Members, memberJSON(m))
		}
		if l := s.currentLeader(); l != nil {
			m := memberJSON(l)
			out.Leader = &m
		}
		writeJSON(w, http.StatusOK, out)
	})
	mux.HandleFunc("GET /pd/api/v1/leader", func(w http.ResponseWriter, _ *http.Request) {
		l := s.currentLeader()
		if l == nil {
			writeError(w, http.StatusServiceUnavailable, errors.New("no PD leader"))
			return
		}
		writeJSON(w, http.StatusOK, memberJSON(l))
	})
	mux.HandleFunc("GET /pd/api/v1/stores", s.onLeader(func(t *term, w http.ResponseWriter, _ *http.Request) {
		out := StoresJSON{Stores: []StoreInfoJSON{}}
		for _, st := range t.cluster.Stores() {
			out.Stores = append(out.Stores, storeJSON(st))
		}
		out.Count = len(out.Stores)
		writeJSON(w, http.StatusOK, out)
	}))
	mux.HandleFunc("GET /pd/api/v1/regions", s.onLeader(func(t *term, w http.ResponseWriter, _ *http.Request) {
		out := RegionsJSON{Regions: []RegionJSON{}}
		for _, r := range t.cluster.Regions() {
			out.Regions = append(out.Regions, regionJSON(r))
		}
		out.Count = len(out.Regions)
		writeJSON(w, http.StatusOK, out)
	}))
	mux.HandleFunc("GET /pd/api/v1/region/id/{id}", s.onLeader(func(t *term, w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
		if err != nil {
			writeError(w, http.StatusBadRequest, errors.New("region id must be a number"))
			return
		}
		reg := t.cluster.Region(id)
		if reg == nil {
			writeError(w, http.StatusNotFound, meta.ErrRegionNotFound)
			return
		}
		writeJSON(w, http.StatusOK, regionJSON(reg))
	}))
	mux.HandleFunc("GET /pd/api/v1/config", s.onLeader(func(t *term, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, t.clusterConfig())
	}))
	mux.HandleFunc("POST /pd/api/v1/config", s.onLeader(func(t *term, w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		cfg, err := t.updateConfig(r.Context(), m)
		switch {
		case errors.Is(err, meta.ErrInvalidConfig):
			writeError(w, http.StatusBadRequest, err)
		case err != nil:
			writeError(w, http.StatusInternalServerError, err)
		default:
			writeJSON(w, http.StatusOK, cfg)
		}
	}))
	mux.HandleFunc("GET /pd/api/v1/operators", s.onLeader(func(t *term, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, t.coord.Controller().Operators())
	}))
	mux.HandleFunc("POST /pd/api/v1/operators", s.onLeader(func(t *term, w http.ResponseWriter, r *http.Request) {
		t.addOperator(w, r)
	}))
	mux.HandleFunc("GET /pd/api/v1/operators/history", s.onLeader(func(t *term, w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, t.coord.Controller().History())
	}))
	return mux
}

// currentLeader is this member if it leads, else the leader it last saw.
func (s *Server) currentLeader() *pdpb.Member {
	if s.IsLeader() {
		return s.self
	}
	if m := s.leader.Load(); m != nil && m.GetMemberId() != s.memberID {
		return m
	}
	return nil
}

// onLeader runs h on the leader's term; a follower redirects to the leader.
func (s *Server) onLeader(h func(*term, http.ResponseWriter, *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if t := s.currentTerm(); t != nil {
			h(t, w, r)
			return
		}
		if l := s.currentLeader(); l != nil && len(l.GetClientUrls()) > 0 {
			http.Redirect(w, r, l.GetClientUrls()[0]+r.URL.RequestURI(), http.StatusTemporaryRedirect)
			return
		}
		writeError(w, http.StatusServiceUnavailable, ErrNotLeader)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func writeError(w http.ResponseWriter, code int, err error) {
	writeJSON(w, code, map[string]string{"error": err.Error()})
}
