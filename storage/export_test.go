package storage

// MigrationForTest returns migration i (0-based), for tests that build an
// older database.
func MigrationForTest(i int) string { return migrations[i] }

// SchemaVersionForTest is the schema version this build writes.
func SchemaVersionForTest() int { return len(migrations) }
