package storage

// MigrationForTest returns migration i (0-based), for tests that build an
// older database.
func MigrationForTest(i int) string { return migrations[i] }
