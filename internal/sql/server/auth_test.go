package server

import "testing"

func TestNativePassword(t *testing.T) {
	salt := newSalt()
	stored := NativePasswordHash("secret")
	if len(stored) != 20 {
		t.Fatalf("hash length %d", len(stored))
	}
	if !CheckNativePassword(salt, ScrambleNativePassword(salt, "secret"), stored) {
		t.Error("right password rejected")
	}
	if CheckNativePassword(salt, ScrambleNativePassword(salt, "wrong"), stored) {
		t.Error("wrong password accepted")
	}
	if CheckNativePassword(newSalt(), ScrambleNativePassword(salt, "secret"), stored) {
		t.Error("response for another salt accepted")
	}
	if CheckNativePassword(salt, nil, stored) {
		t.Error("empty response accepted for a password")
	}
	if !CheckNativePassword(salt, nil, NativePasswordHash("")) {
		t.Error("empty password rejected")
	}
	if CheckNativePassword(salt, ScrambleNativePassword(salt, "x"), nil) {
		t.Error("password accepted for an account without one")
	}
	// MySQL's documented hash of "secret": *14E65567ABDB5135D0CFD9A70B3032C179A49EE7
	const want = "14e65567abdb5135d0cfd9a70b3032c179a49ee7"
	if got := hexString(stored); got != want {
		t.Errorf("NativePasswordHash(secret) = %s, want %s", got, want)
	}
}

func TestSHA2Password(t *testing.T) {
	salt := newSalt()
	stored := SHA2PasswordHash("secret")
	if len(stored) != 32 {
		t.Fatalf("hash length %d", len(stored))
	}
	if !CheckSHA2Password(salt, ScrambleSHA2Password(salt, "secret"), stored) {
		t.Error("right password rejected")
	}
	if CheckSHA2Password(salt, ScrambleSHA2Password(salt, "wrong"), stored) {
		t.Error("wrong password accepted")
	}
	if CheckSHA2Password(newSalt(), ScrambleSHA2Password(salt, "secret"), stored) {
		t.Error("response for another salt accepted")
	}
	if !CheckSHA2Password(salt, nil, SHA2PasswordHash("")) {
		t.Error("empty password rejected")
	}
	if CheckSHA2Password(salt, nil, stored) {
		t.Error("empty response accepted for a password")
	}
}

func TestSaltIsPrintable(t *testing.T) {
	for range 100 {
		for _, b := range newSalt() {
			if b == 0 || b >= 0x80 {
				t.Fatalf("salt byte %#x", b)
			}
		}
	}
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
