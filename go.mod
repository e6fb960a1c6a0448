module evolved

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/coreos/go-systemd/v22 v22.7.0
	github.com/lmittmann/tint v1.2.1
	github.com/robfig/cron/v3 v3.0.1
	golang.org/x/sync v0.24.0
	golang.org/x/sys v0.49.0
	modernc.org/sqlite v1.61.1
)

require (
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/ncruces/go-strftime v1.1.0 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	modernc.org/libc v1.79.0 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
)
