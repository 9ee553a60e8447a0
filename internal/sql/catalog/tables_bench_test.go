package catalog

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/codec"
	"testing"

	"github.com/strata-db/strata/internal/types"
)

// sbtestInfo builds sysbench's table without a cluster.
func sbtestInfo(b testing.TB) *TableInfo {
	stmt := parseOne(b, "CREATE TABLE sbtest1 (id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, "+
		"c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id), KEY k_1 (k))")
	tbl, err := buildTableInfo(Env{}, stmt.(*ast.CreateTableStmt), &DBInfo{Charset: defaultCharset, Collate: defaultCollate})
	if err != nil {
		b.Fatal(err)
	}
	tbl.ID = 100
	return tbl
}

func sbtestRow() []types.Datum {
	return []types.Datum{types.NewIntDatum(42), types.NewIntDatum(4242),
		types.NewStringDatum("83868641912-28773972837-60736120486-75162659906-27563526494-20381887404-41576422241-93426793964-56405065102-33518432330"),
		types.NewStringDatum("67847967377-48000963322-62604785301-91415491898-96926520291")}
}

func BenchmarkEncodeRecord(b *testing.B) {
	tbl, row := sbtestInfo(b), sbtestRow()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tbl.EncodeRecord(42, row)
	}
}

func BenchmarkDecodeRecord(b *testing.B) {
	tbl := sbtestInfo(b)
	_, v := tbl.EncodeRecord(42, sbtestRow())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := tbl.DecodeRecord(42, v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIndexKey(b *testing.B) {
	tbl, row := sbtestInfo(b), sbtestRow()
	idx := tbl.Index("k_1")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tbl.IndexKey(idx, row, 42)
	}
}

// TestIndexKeyLayout pins IndexKey to codec's key layout functions.
func TestIndexKeyLayout(t *testing.T) {
	tbl := sbtestInfo(t)
	row := sbtestRow()
	idx := tbl.Index("k_1")
	got, distinct := tbl.IndexKey(idx, row, 42)
	want := codec.TableIndexKeyWithHandle(tbl.ID, idx.ID, codec.EncodeKey(nil, row[1]), 42)
	if distinct || string(got) != string(want) {
		t.Fatalf("non-unique key %x, want %x", got, want)
	}
	uidx := &IndexInfo{ID: 9, Unique: true, Columns: []*IndexColumn{{Name: "c", Offset: 2, Length: 3}}}
	got, distinct = tbl.IndexKey(uidx, row, 42)
	want = codec.TableIndexKey(tbl.ID, 9, codec.EncodeKey(nil, types.NewStringDatum("838")))
	if !distinct || string(got) != string(want) {
		t.Fatalf("unique prefix key %x, want %x", got, want)
	}
	h, err := IndexEntryHandle(idx, func() []byte { k, _ := tbl.IndexKey(idx, row, 42); return k }(), nonUniqueIndexValue)
	if err != nil || h != 42 {
		t.Fatalf("handle %d %v", h, err)
	}
}
