// Package deploy holds the systemd unit and example configuration of evolved; its test checks the unit with systemd-analyze.
package deploy
