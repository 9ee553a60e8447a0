package server

import (
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
)

// NativePasswordHash returns what mysql_native_password stores for a
// password: SHA1(SHA1(pw)) (the 20 bytes behind the "*HEX" of
// mysql.user.authentication_string). The empty password stores nil.
func NativePasswordHash(pw string) []byte {
	if pw == "" {
		return nil
	}
	h1 := sha1.Sum([]byte(pw))
	h2 := sha1.Sum(h1[:])
	return h2[:]
}

// ScrambleNativePassword returns the client's mysql_native_password
// response for pw and salt: SHA1(pw) XOR SHA1(salt + SHA1(SHA1(pw))).
func ScrambleNativePassword(salt []byte, pw string) []byte {
	if pw == "" {
		return nil
	}
	h1 := sha1.Sum([]byte(pw))
	h2 := sha1.Sum(h1[:])
	h := sha1.New()
	h.Write(salt)
	h.Write(h2[:])
	out := h.Sum(nil)
	for i := range out {
		out[i] ^= h1[i]
	}
	return out
}

// CheckNativePassword checks a mysql_native_password response against the
// stored SHA1(SHA1(pw)): SHA1(salt + stored) XOR response must be a value
// whose SHA1 is stored. An empty stored hash accepts only an empty
// response.
func CheckNativePassword(salt, response, storedSHA1SHA1 []byte) bool {
	if len(storedSHA1SHA1) == 0 {
		return len(response) == 0
	}
	if len(response) != sha1.Size || len(storedSHA1SHA1) != sha1.Size {
		return false
	}
	h := sha1.New()
	h.Write(salt)
	h.Write(storedSHA1SHA1)
	stage1 := h.Sum(nil)
	for i := range stage1 {
		stage1[i] ^= response[i]
	}
	got := sha1.Sum(stage1)
	return subtle.ConstantTimeCompare(got[:], storedSHA1SHA1) == 1
}

// SHA2PasswordHash returns what caching_sha2_password keeps in its cache to
// check fast-path logins: SHA256(SHA256(pw)). The empty password stores nil.
func SHA2PasswordHash(pw string) []byte {
	if pw == "" {
		return nil
	}
	h1 := sha256.Sum256([]byte(pw))
	h2 := sha256.Sum256(h1[:])
	return h2[:]
}

// ScrambleSHA2Password returns the client's caching_sha2_password fast-path
// response: SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + salt).
func ScrambleSHA2Password(salt []byte, pw string) []byte {
	if pw == "" {
		return nil
	}
	h1 := sha256.Sum256([]byte(pw))
	h2 := sha256.Sum256(h1[:])
	h := sha256.New()
	h.Write(h2[:])
	h.Write(salt)
	out := h.Sum(nil)
	for i := range out {
		out[i] ^= h1[i]
	}
	return out
}

// CheckSHA2Password checks a caching_sha2_password fast-path response
// against the stored SHA256(SHA256(pw)): SHA256(stored + salt) XOR response
// must be a value whose SHA256 is stored. An empty stored hash accepts only
// an empty response.
func CheckSHA2Password(salt, response, storedSHA256SHA256 []byte) bool {
	if len(storedSHA256SHA256) == 0 {
		return len(response) == 0
	}
	if len(response) != sha256.Size || len(storedSHA256SHA256) != sha256.Size {
		return false
	}
	h := sha256.New()
	h.Write(storedSHA256SHA256)
	h.Write(salt)
	stage1 := h.Sum(nil)
	for i := range stage1 {
		stage1[i] ^= response[i]
	}
	got := sha256.Sum256(stage1)
	return subtle.ConstantTimeCompare(got[:], storedSHA256SHA256) == 1
}

// newSalt returns a 20-byte scramble of printable, non-NUL bytes, as MySQL
// sends (clients treat it as a NUL-terminated string).
func newSalt() []byte {
	salt := make([]byte, 20)
	if _, err := rand.Read(salt); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	for i, b := range salt {
		b &= 0x7f
		if b == 0 || b == '$' {
			b++
		}
		salt[i] = b
	}
	return salt
}
