module evolved

go 1.26.0

require golang.org/x/sync v0.24.0 // indirect
