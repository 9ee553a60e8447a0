package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"testing"
	"time"
)

// selfSigned returns a TLS config with a fresh self-signed certificate.
func selfSigned(t *testing.T) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "strata-test"},
		NotBefore:    time.Unix(0, 0),
		NotAfter:     time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC),
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
}

func TestTLS(t *testing.T) {
	ts := startServer(t, Config{TLSConfig: selfSigned(t), DefaultAuthPlugin: PluginCachingSHA2Password})
	db := ts.open(t, "alice", "secret", "tls=skip-verify")
	rows, err := db.Query("select_all")
	if err != nil {
		t.Fatal(err)
	}
	checkAllTypes(t, scanAll(t, rows), false)
	rows.Close()
	ts.b.mu.Lock()
	caps := ts.b.lastInfo.Capability
	ts.b.mu.Unlock()
	if caps&ClientSSL == 0 {
		t.Errorf("negotiated capabilities %#x lack CLIENT_SSL", caps)
	}
	// Plain connections still work.
	if err := ts.open(t, "root", "", "").Ping(); err != nil {
		t.Fatal(err)
	}
}
