package sysvar

// ForeignKeyChecks is @@foreign_key_checks: foreign keys are checked
// (and cascade) while it is ON, the default.
func (v *Vars) ForeignKeyChecks() bool {
	s, err := v.Get("foreign_key_checks")
	return err != nil || s != "OFF"
}
