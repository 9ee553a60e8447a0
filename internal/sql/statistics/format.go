package statistics

import (
	"strings"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/types"
)

// FormatValue renders an encoded value of h for SHOW STATS_BUCKETS and
// SHOW STATS_TOPN: a column's value as text, an index's as "(v1, v2)"
// (TiDB's form).
func (h *Hist) FormatValue(v []byte) string {
	var parts []string
	for i := 0; len(v) > 0; i++ {
		var d types.Datum
		var err error
		if i < len(h.Types) {
			v, d, err = codec.DecodeKeyValue(v, h.Types[i])
		} else {
			v, d, err = codec.DecodeOne(v)
		}
		if err != nil {
			return "?"
		}
		parts = append(parts, d.String())
	}
	if !h.IsIndex && len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// AvgColSize is the average encoded size of the non-NULL values.
func (h *Hist) AvgColSize() float64 {
	n := h.Rows - h.NullCount
	if h.IsIndex {
		n = h.Rows
	}
	if n <= 0 {
		return 0
	}
	return float64(h.TotSize) / float64(n)
}
