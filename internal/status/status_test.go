package status

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestEndpoints(t *testing.T) {
	s, err := Start("127.0.0.1:0", Info{Role: "kv", Version: "test", Addrs: map[string]string{"grpc": "x"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	get := func(path string) string {
		resp, err := http.Get("http://" + s.Addr() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %s", path, resp.Status)
		}
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	var st struct {
		Role string `json:"role"`
	}
	if err := json.Unmarshal([]byte(get("/status")), &st); err != nil || st.Role != "kv" {
		t.Errorf("/status: %+v %v", st, err)
	}
	if m := get("/metrics"); !strings.Contains(m, "go_goroutines") {
		t.Errorf("/metrics lacks go_goroutines")
	}
	if p := get("/debug/pprof/"); !strings.Contains(p, "goroutine") {
		t.Errorf("/debug/pprof/ lacks goroutine")
	}
}
