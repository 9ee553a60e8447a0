// Package server speaks the MySQL client/server protocol (4.1) and hands
// the SQL to a Backend; it knows nothing of parsing, planning or storage.
//
//	client ──TCP── conn (one goroutine) ──Backend.Authenticate / Open──▶ Session
//	                 │ packetIO: 4-byte header (length, sequence id),
//	                 │ 16 MiB splitting/joining, max_allowed_packet
//	                 ├ handshake.go  HandshakeV10, HandshakeResponse41,
//	                 │               auth switch, caching_sha2 fast path
//	                 ├ conn.go       command loop, dispatch, KILL, recover
//	                 ├ query.go      COM_QUERY, result sets, multi-results
//	                 ├ stmt.go       COM_STMT_PREPARE/EXECUTE/CLOSE/RESET/
//	                 │ execute.go    SEND_LONG_DATA, binary parameters
//	                 ├ rowtext.go    text rows  (MySQL's float/decimal/time text)
//	                 ├ rowbinary.go  binary rows
//	                 └ write.go      OK / ERR / EOF / column definitions
//
// Invariants:
//
//   - Every response to a command is a complete MySQL response (OK, ERR, a
//     result set, or nothing for COM_STMT_CLOSE / SEND_LONG_DATA) with
//     sequence ids continuing from the command's; packets are buffered and
//     flushed once per response.
//   - Errors from the Session become ERR packets through sqlerr.From (code,
//     SQLSTATE, message) and the connection goes on. Failures of the
//     connection itself (I/O, a malformed sequence id, a packet over
//     max_allowed_packet after its ERR 1153) end that connection only. A
//     panic in a command is recovered, logged with slog, answered with ERR
//     1105 and closes that connection; the server goes on.
//   - Multi-results: the end packet of a result (its OK, or the EOF after
//     its rows) is held back until the next result or the end of the
//     query, so that SERVER_MORE_RESULTS_EXISTS is set exactly when another
//     result or an ERR follows. Multi-statements are allowed per
//     connection (CLIENT_MULTI_STATEMENTS, COM_SET_OPTION); sessions read
//     the setting with MultiStatementsAllowed(ctx) and refuse the whole
//     query up front; as a backstop the server refuses a second emitted
//     result with TiDB's 8130.
//   - The server drains and closes every Result it receives; rows are
//     encoded straight from the Row getters into the packet buffer, with
//     the getter the column type implies (signedness by UnsignedFlag).
//   - CLIENT_DEPRECATE_EOF, when negotiated, drops the EOF after column
//     definitions and replaces the final EOF by an OK packet with header
//     0xfe.
//
// Authentication: the handshake proposes Config.DefaultAuthPlugin with a
// 20-byte salt; a client answering with another plugin than
// mysql_native_password or caching_sha2_password gets an AuthSwitchRequest.
// The Backend checks the response (CheckNativePassword, CheckSHA2Password
// do the scramble math against stored double hashes); caching_sha2's fast
// path is always possible since the double hash is what is stored, so a
// successful non-empty login gets fast_auth_success (0x01 0x03). With
// Config.TLSConfig the handshake offers CLIENT_SSL and an SSLRequest
// upgrades the connection before the real handshake response. caching_sha2's
// full authentication (cleartext over TLS, or RSA) is not implemented: the
// fast path always applies because the double hash is what is stored.
//
// The connection phase is bounded by Config.HandshakeTimeout (a socket
// deadline); after it, connections have no deadline: KILL, Server.Close
// and the session's own timeouts end them.
//
// Lock order: Server.mu and conn.mu are never held together (Close and Kill
// copy what they need and release Server.mu first). conn.mu only guards the running
// command's cancel function, which Kill reads from other goroutines.
package server
