import net from "node:net";

/** One client connection through the proxy, and its way to PostgreSQL. */
export interface ProxiedConnection {
  readonly client: net.Socket;
  readonly upstream: net.Socket;
  /** Ends both sides at once, as a terminated backend or a dropped network does. */
  cut(): void;
}

/** What a test does with the bytes of one connection: a hook returning false keeps them from the other side. */
export interface ConnectionHooks {
  fromClient?(data: Buffer, conn: ProxiedConnection): boolean | void;
  fromServer?(data: Buffer, conn: ProxiedConnection): boolean | void;
}

/**
 * A loopback TCP proxy in front of a real PostgreSQL for tests that cut a connection at an exact point of
 * the protocol (a COMMIT's answer, the driver's startup queries). Everything is forwarded unless a hook
 * says otherwise; `hooks` is called once per connection, so a hook may keep state for its connection.
 */
export class PgProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly target: { host: string; port: number },
    private readonly hooks: (conn: ProxiedConnection) => ConnectionHooks,
  ) {
    this.server = net.createServer((client) => this.pipe(client));
  }

  /** Starts a proxy in front of `databaseUrl`'s server; `url` is the same database reached through it. */
  static async start(databaseUrl: string, hooks: (conn: ProxiedConnection) => ConnectionHooks): Promise<{ proxy: PgProxy; url: string }> {
    const url = new URL(databaseUrl);
    const proxy = new PgProxy({ host: url.hostname, port: Number(url.port || 5432) }, hooks);
    await new Promise<void>((r) => proxy.server.listen(0, "127.0.0.1", r));
    url.hostname = "127.0.0.1";
    url.port = String((proxy.server.address() as net.AddressInfo).port);
    return { proxy, url: url.toString() };
  }

  private pipe(client: net.Socket) {
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(client).add(upstream);
    const conn: ProxiedConnection = {
      client,
      upstream,
      cut: () => {
        client.destroy();
        upstream.destroy();
      },
    };
    const hooks = this.hooks(conn);
    client.on("data", (d) => hooks.fromClient?.(d, conn) !== false && upstream.write(d));
    upstream.on("data", (d) => hooks.fromServer?.(d, conn) !== false && client.write(d));
    client.on("close", conn.cut).on("error", conn.cut);
    upstream.on("close", conn.cut).on("error", conn.cut);
  }

  async close() {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}
