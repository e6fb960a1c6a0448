package daemon

import (
	"context"
	"fmt"
	"os"
	"time"

	"evolved/cluster"
)

// startCluster connects to the NATS server of cfg.Cluster, first
// starting it beside the database when it is embedded, and prepares the
// coordinator.
func (d *Daemon) startCluster(ctx context.Context, cfg Config, lookup func(string) (string, bool)) error {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	cc := cfg.Cluster
	conn := cluster.ConnectOptions{URL: cc.NATS, Name: "evolved coordinator", TLSCA: cc.TLSCA, TLSCert: cc.TLSCert, TLSKey: cc.TLSKey, Log: d.log}.FromEnvironment(lookup)
	if cc.NATS == "embedded" {
		dir := cc.StoreDir
		if dir == "" {
			dir = cfg.DB + ".nats"
		}
		s, err := cluster.StartServer(cluster.ServerOptions{Listen: cc.Listen, StoreDir: dir, Token: conn.Token, User: conn.User, Password: conn.Password,
			TLSCert: cc.ServerCert, TLSKey: cc.ServerKey})
		if err != nil {
			return fmt.Errorf("daemon: %w", err)
		}
		d.natsServer = s
		conn.URL = s.URL()
		if conn.TLSCA == "" {
			conn.TLSCA = cc.ServerCert // a self-signed certificate is its own authority
		}
		d.log.Info("embedded NATS server started: add workers with evolved worker --nats URL", "url", s.URL(), "store", dir)
	}
	nc, err := cluster.Connect(ctx, conn)
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	d.nc = nc
	coord, err := cluster.NewCoordinator(ctx, nc, cluster.Limits{AckWait: time.Duration(cc.AckWait) * time.Second}, d.log)
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	d.coord = coord
	return nil
}
