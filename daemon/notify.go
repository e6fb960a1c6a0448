package daemon

import (
	"context"
	"time"

	sd "github.com/coreos/go-systemd/v22/daemon"
)

// Notifier sends sd_notify messages ("READY=1", "STATUS=...") to systemd.
type Notifier interface {
	Notify(state string)
	// WatchdogInterval returns how often systemd expects WATCHDOG=1, or 0
	// when the watchdog is off.
	WatchdogInterval() time.Duration
}

// systemdNotifier talks to the socket named by $NOTIFY_SOCKET; without it
// every call does nothing.
type systemdNotifier struct{}

// SystemdNotifier returns the Notifier of a service started by systemd.
func SystemdNotifier() Notifier { return systemdNotifier{} }

func (systemdNotifier) Notify(state string) { sd.SdNotify(false, state) }

func (systemdNotifier) WatchdogInterval() time.Duration {
	d, err := sd.SdWatchdogEnabled(false)
	if err != nil {
		return 0
	}
	return d
}

// watchdog pings systemd at half its interval for as long as the daemon
// makes progress: a game finished or a generation committed within the last
// two intervals (a game of a deep search can take a while). A daemon stuck
// longer stops pinging, and systemd restarts it.
func (d *Daemon) watchdog(ctx context.Context) {
	interval := d.notifier.WatchdogInterval()
	if interval <= 0 {
		return
	}
	t := time.NewTicker(interval / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if now.Sub(time.Unix(0, d.lastBeat.Load())) < 2*interval {
				d.notifier.Notify("WATCHDOG=1")
			}
		}
	}
}
