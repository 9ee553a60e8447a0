package server

import "github.com/pingcap/tidb/pkg/parser/mysql"

// Capability flags (Protocol::CapabilityFlags).
const (
	ClientLongPassword               uint32 = 1 << 0
	ClientFoundRows                  uint32 = 1 << 1
	ClientLongFlag                   uint32 = 1 << 2
	ClientConnectWithDB              uint32 = 1 << 3
	ClientNoSchema                   uint32 = 1 << 4
	ClientCompress                   uint32 = 1 << 5
	ClientODBC                       uint32 = 1 << 6
	ClientLocalFiles                 uint32 = 1 << 7
	ClientIgnoreSpace                uint32 = 1 << 8
	ClientProtocol41                 uint32 = 1 << 9
	ClientInteractive                uint32 = 1 << 10
	ClientSSL                        uint32 = 1 << 11
	ClientIgnoreSigpipe              uint32 = 1 << 12
	ClientTransactions               uint32 = 1 << 13
	ClientReserved                   uint32 = 1 << 14
	ClientSecureConnection           uint32 = 1 << 15
	ClientMultiStatements            uint32 = 1 << 16
	ClientMultiResults               uint32 = 1 << 17
	ClientPSMultiResults             uint32 = 1 << 18
	ClientPluginAuth                 uint32 = 1 << 19
	ClientConnectAttrs               uint32 = 1 << 20
	ClientPluginAuthLenencClientData uint32 = 1 << 21
	ClientDeprecateEOF               uint32 = 1 << 24
)

// serverCapabilities is what the handshake advertises.
const serverCapabilities = ClientLongPassword | ClientFoundRows | ClientLongFlag |
	ClientConnectWithDB | ClientNoSchema | ClientODBC | ClientIgnoreSpace | ClientProtocol41 |
	ClientInteractive | ClientIgnoreSigpipe | ClientTransactions | ClientSecureConnection |
	ClientMultiStatements | ClientMultiResults | ClientPSMultiResults | ClientPluginAuth |
	ClientConnectAttrs | ClientPluginAuthLenencClientData | ClientDeprecateEOF

// Server status flags (SERVER_STATUS_*), returned by Session.Status.
const (
	StatusInTrans            uint16 = 0x0001
	StatusAutocommit         uint16 = 0x0002
	StatusMoreResultsExists  uint16 = 0x0008
	StatusNoGoodIndexUsed    uint16 = 0x0010
	StatusNoIndexUsed        uint16 = 0x0020
	StatusCursorExists       uint16 = 0x0040
	StatusLastRowSent        uint16 = 0x0080
	StatusDBDropped          uint16 = 0x0100
	StatusNoBackslashEscapes uint16 = 0x0200
	StatusInTransReadonly    uint16 = 0x2000
)

// Commands (COM_*).
const (
	comSleep            byte = 0x00
	comQuit             byte = 0x01
	comInitDB           byte = 0x02
	comQuery            byte = 0x03
	comFieldList        byte = 0x04
	comStatistics       byte = 0x09
	comPing             byte = 0x0e
	comStmtPrepare      byte = 0x16
	comStmtExecute      byte = 0x17
	comStmtSendLongData byte = 0x18
	comStmtClose        byte = 0x19
	comStmtReset        byte = 0x1a
	comSetOption        byte = 0x1b
	comResetConnection  byte = 0x1f
)

// Packet headers.
const (
	headerOK        byte = 0x00
	headerAuthMore  byte = 0x01
	headerLocalInfl byte = 0xfb
	headerEOF       byte = 0xfe
	headerErr       byte = 0xff
)

// Authentication plugins.
const (
	// PluginNativePassword is mysql_native_password.
	PluginNativePassword = "mysql_native_password"
	// PluginCachingSHA2Password is caching_sha2_password.
	PluginCachingSHA2Password = "caching_sha2_password"
)

// maxPayloadLen is the largest payload of one physical packet; longer
// logical packets are split, and a chunk of exactly this size is followed
// by another (possibly empty) chunk.
const maxPayloadLen = 1<<24 - 1

// notFixedDec is Column.Decimals for floats without a fixed scale.
const notFixedDec = 31

// binaryCollation is the collation id of binary strings.
const binaryCollation = 63

// typeOldDecimal is MySQL's pre-5.0 DECIMAL type code (MYSQL_TYPE_DECIMAL).
const typeOldDecimal byte = 0

// Column flags as uint16 (the parser declares them as uint).
const (
	unsignedFlag = uint16(mysql.UnsignedFlag)
	binaryFlag   = uint16(mysql.BinaryFlag)
)
