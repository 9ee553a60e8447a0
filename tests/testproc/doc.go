// Package testproc starts real strata processes for end-to-end tests: it
// builds the binary once per test binary, starts subcommands with their own
// data dirs on loopback ports chosen at run time, waits for the line a
// process prints when it serves, and stops them with SIGTERM or kill -9.
// StartProgram does the same for another program run beside strata (the
// differential test's mariadbd).
//
// Readiness is observed from the process's own output, never guessed with
// sleeps.
package testproc
