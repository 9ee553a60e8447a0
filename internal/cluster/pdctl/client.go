package pdctl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// ErrUnreachable is returned (wrapped) when no PD address answered.
var ErrUnreachable = errors.New("PD unreachable")

// APIError is an error status from PD's HTTP API.
type APIError struct {
	URL    string
	Status int
	// Message is PD's {"error": ...} text, or the body.
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("PD answered %d %s for %s: %s", e.Status, http.StatusText(e.Status), e.URL, e.Message)
}

// Client calls PD's HTTP API on one of several addresses.
type Client struct {
	endpoints []string // base URLs without a trailing slash
	http      *http.Client
}

// New makes a client of the PD addresses in addrs (comma-separated,
// host:port or http(s)://host:port). timeout bounds each request.
func New(addrs string, timeout time.Duration) (*Client, error) {
	c := &Client{http: &http.Client{Timeout: timeout}}
	for _, a := range strings.Split(addrs, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		if !strings.Contains(a, "://") {
			a = "http://" + a
		}
		c.endpoints = append(c.endpoints, strings.TrimRight(a, "/"))
	}
	if len(c.endpoints) == 0 {
		return nil, fmt.Errorf("no PD address in %q", addrs)
	}
	return c, nil
}

// Get fetches path (e.g. "/pd/api/v1/stores"), decodes the JSON into out
// (unless nil) and returns the raw body.
func (c *Client) Get(ctx context.Context, path string, out any) ([]byte, error) {
	return c.do(ctx, http.MethodGet, path, nil, out)
}

// Post sends body as JSON to path, decodes the answer into out (unless
// nil) and returns the raw answer.
func (c *Client) Post(ctx context.Context, path string, body any, out any) ([]byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	return c.do(ctx, http.MethodPost, path, b, out)
}

func (c *Client) do(ctx context.Context, method, path string, body []byte, out any) ([]byte, error) {
	var failures []string
	var unavailable *APIError // the last 503: a member that knows no leader
	for _, ep := range c.endpoints {
		url := ep + path
		req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := c.http.Do(req)
		if err != nil {
			failures = append(failures, err.Error())
			continue
		}
		raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
		resp.Body.Close()
		if err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", url, err))
			continue
		}
		if resp.StatusCode == http.StatusServiceUnavailable && len(c.endpoints) > 1 {
			unavailable = &APIError{URL: url, Status: resp.StatusCode, Message: apiMessage(raw)}
			continue // maybe another member knows the leader
		}
		if resp.StatusCode/100 != 2 {
			return raw, &APIError{URL: url, Status: resp.StatusCode, Message: apiMessage(raw)}
		}
		if out != nil {
			if err := json.Unmarshal(raw, out); err != nil {
				return raw, fmt.Errorf("decode %s: %w", url, err)
			}
		}
		return raw, nil
	}
	if unavailable != nil {
		return nil, unavailable
	}
	return nil, fmt.Errorf("%w: %s", ErrUnreachable, strings.Join(failures, "; "))
}

func apiMessage(raw []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error != "" {
		return e.Error
	}
	return strings.TrimSpace(string(raw))
}
