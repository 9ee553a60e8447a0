package codec

import (
	"fmt"

	"github.com/strata-db/strata/internal/kv"
)

// Metadata keys live under 'm' (below every table key 't'):
//
//	string value:  'm' EncodeBytes(name) 's'
//	hash field:    'm' EncodeBytes(name) 'h' EncodeBytes(field)
//
// so that the fields of one hash (a database's tables, say) sort together
// and scan with MetaHashPrefix.
const (
	metaPrefix  = 'm'
	metaString  = 's'
	metaHashTag = 'h'
)

// MetaPrefix returns the prefix of all metadata keys.
func MetaPrefix() kv.Key { return kv.Key{metaPrefix} }

// MetaKey returns the key of the metadata string name.
func MetaKey(name []byte) kv.Key {
	b := EncodeBytes([]byte{metaPrefix}, name)
	return append(b, metaString)
}

// MetaHashPrefix returns the prefix of the fields of metadata hash name.
func MetaHashPrefix(name []byte) kv.Key {
	b := EncodeBytes([]byte{metaPrefix}, name)
	return append(b, metaHashTag)
}

// MetaHashKey returns the key of field of metadata hash name.
func MetaHashKey(name, field []byte) kv.Key {
	return EncodeBytes(MetaHashPrefix(name), field)
}

// DecodeMetaHashKey splits a MetaHashKey into name and field.
func DecodeMetaHashKey(key []byte) (name, field []byte, err error) {
	if len(key) == 0 || key[0] != metaPrefix {
		return nil, nil, fmt.Errorf("%w: not a meta key %x", ErrCorrupt, key)
	}
	rest, name, err := DecodeBytes(key[1:])
	if err != nil {
		return nil, nil, err
	}
	if len(rest) == 0 || rest[0] != metaHashTag {
		return nil, nil, fmt.Errorf("%w: not a meta hash key %x", ErrCorrupt, key)
	}
	rest, field, err = DecodeBytes(rest[1:])
	if err != nil || len(rest) != 0 {
		return nil, nil, fmt.Errorf("%w: not a meta hash key %x", ErrCorrupt, key)
	}
	return name, field, nil
}
