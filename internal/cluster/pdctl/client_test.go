package pdctl

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestClient(t *testing.T) {
	leader := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pd/api/v1/stores":
			w.Write([]byte(`{"count": 0, "stores": []}`))
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error": "region not found"}`))
		}
	}))
	defer leader.Close()
	follower := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, leader.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	defer follower.Close()
	ctx := context.Background()

	// A dead address first, then a follower that redirects to the leader.
	c, err := New(closedAddr(t)+","+strings.TrimPrefix(follower.URL, "http://"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ Count int }
	if _, err := c.Get(ctx, "/pd/api/v1/stores", &out); err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(ctx, "/pd/api/v1/region/id/9", nil)
	var api *APIError
	if !errors.As(err, &api) || api.Status != 404 || api.Message != "region not found" {
		t.Fatalf("404: %v", err)
	}

	c, err = New(closedAddr(t), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, "/pd/api/v1/stores", nil); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("closed port: %v", err)
	}
	if _, err := New(" , ", time.Second); err == nil {
		t.Fatal("New without an address")
	}
}
