package sysvar

import "strings"

// SetNames runs SET NAMES charset [COLLATE collation]: character_set_client,
// character_set_connection and character_set_results become charset and
// collation_connection becomes collation (charset's default collation if
// empty). "DEFAULT" as charset means character_set_server. Nothing
// changes on error.
func (v *Vars) SetNames(charset, collation string) error {
	cs := strings.ToLower(strings.TrimSpace(charset))
	if cs == "default" {
		cs, _ = v.Get("character_set_server")
	}
	def, ok := Charsets[cs]
	if !ok {
		return &Error{Kind: ErrWrongValueForVar, Name: "character_set_client", Value: charset, Detail: "unknown character set"}
	}
	coll := strings.ToLower(strings.TrimSpace(collation))
	if coll == "" {
		coll = def
	}
	if c, ok := CollationCharset(coll); !ok || c != cs {
		return &Error{Kind: ErrWrongValueForVar, Name: "collation_connection", Value: collation,
			Detail: "COLLATION '" + collation + "' is not valid for CHARACTER SET '" + cs + "'"}
	}
	for _, n := range []string{"character_set_client", "character_set_connection", "character_set_results"} {
		v.store(v.reg.vars[n], cs)
	}
	v.store(v.reg.vars["collation_connection"], coll)
	return nil
}

// SetCharacterSet runs SET CHARACTER SET charset: character_set_client and
// character_set_results become charset, and the connection's charset and
// collation become the database's.
func (v *Vars) SetCharacterSet(charset string) error {
	cs := strings.ToLower(strings.TrimSpace(charset))
	if cs == "default" {
		cs, _ = v.Get("character_set_server")
	}
	if _, ok := Charsets[cs]; !ok {
		return &Error{Kind: ErrWrongValueForVar, Name: "character_set_client", Value: charset, Detail: "unknown character set"}
	}
	dbcs, _ := v.Get("character_set_database")
	dbcoll, _ := v.Get("collation_database")
	v.store(v.reg.vars["character_set_client"], cs)
	v.store(v.reg.vars["character_set_results"], cs)
	v.store(v.reg.vars["character_set_connection"], dbcs)
	v.store(v.reg.vars["collation_connection"], dbcoll)
	return nil
}
