package testproc

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"testing"
)

// Metrics returns the /metrics text of the status port at addr.
func Metrics(t testing.TB, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s/metrics: %s, %v", addr, resp.Status, err)
	}
	return string(b)
}

// MetricValue returns the value of series (its name and labels as
// /metrics prints them, e.g. `x_count{type="Get"}`) in the metrics text
// m, failing the test when it is absent.
func MetricValue(t testing.TB, m, series string) float64 {
	t.Helper()
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`)
	match := re.FindStringSubmatch(m)
	if match == nil {
		t.Fatalf("/metrics lacks %s", series)
	}
	v, err := strconv.ParseFloat(match[1], 64)
	if err != nil {
		t.Fatalf("%s: %v", series, err)
	}
	return v
}
