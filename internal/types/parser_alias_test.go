package types

import ptypes "github.com/pingcap/tidb/pkg/parser/types"

type parserFieldType = ptypes.FieldType
