import postgres from "postgres";
import { queryTrace } from "./trace";

export interface ListenOptions {
  /** Shown in pg_stat_activity (e.g. "faultline-worker-listen"). */
  applicationName: string;
  /** Called with each NOTIFY payload on the channel(s), and the channel it came on. */
  onPayload(payload: string, channel: string): void;
  /** Called each time LISTEN is in place; `reconnected` after a loss (NOTIFYs may have been missed: catch up). */
  onListening?(reconnected: boolean): void;
  /** Called when the connection is lost or could not be made; a retry follows after `retryInMs`. */
  onLost?(reason: string, retryInMs: number): void;
  /** Upper bound of the exponential backoff between attempts (default 5 s). */
  maxBackoffMs?: number;
}

export interface Listener {
  /** True while LISTEN is in place. */
  readonly listening: boolean;
  /** Settles after the first attempt, listening or not (a failed first attempt is retried like any loss). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * A dedicated connection that LISTENs on `channel` (one, or several on the same connection) and keeps doing so: when the connection is lost
 * (server restart, pg_terminate_backend, outage) it reconnects with exponential backoff until it is
 * back, however long that takes. NOTIFY is only a wake-up hint: readers catch up from the event log by
 * seq, so `onListening(true)` after a loss is where they do it.
 *
 * postgres.js has `sql.listen`, but it re-listens only once after a loss and drops the channel silently
 * if the server is still down then; the chaos suite restarts the server, so we supervise it ourselves.
 */
export function listenToChannel(url: string, channel: string | readonly string[], opts: ListenOptions): Listener {
  const channels: readonly string[] = typeof channel === "string" ? [channel] : channel;
  let closed = false;
  let attempt = 0;
  let current: postgres.Sql | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  const maxBackoff = opts.maxBackoffMs ?? 5000;
  let settleReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (settleReady = resolve));

  const lost = (reason: string) => {
    if (closed || retryTimer) return;
    const delay = Math.min(maxBackoff, 250 * 2 ** attempt) + Math.floor(Math.random() * 100);
    attempt += 1;
    opts.onLost?.(reason, delay);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, delay);
  };

  const connect = async () => {
    if (closed) return;
    const client: postgres.Sql = postgres(url, {
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      connect_timeout: 10,
      fetch_types: false,
      onnotice: () => {},
      connection: { application_name: opts.applicationName },
      onnotify: (ch: string, payload: string) => {
        if (!channels.includes(ch) || current !== client) return;
        queryTrace()?.notify(payload);
        opts.onPayload(payload, ch);
      },
      onclose: () => {
        if (current !== client || closed) return;
        current = null;
        void client.end({ timeout: 0 }).catch(() => {});
        lost("connection closed");
      },
    } as postgres.Options<Record<string, postgres.PostgresType>>);
    try {
      for (const ch of channels) await client.unsafe(`LISTEN "${ch.replace(/"/g, '""')}"`);
    } catch (e) {
      void client.end({ timeout: 0 }).catch(() => {});
      lost(e instanceof Error ? e.message.split("\n")[0] : String(e));
      settleReady();
      return;
    }
    if (closed) {
      await client.end({ timeout: 1 }).catch(() => {});
      return;
    }
    current = client;
    const reconnected = attempt > 0;
    attempt = 0;
    opts.onListening?.(reconnected);
    settleReady();
  };

  void connect();

  return {
    get listening() {
      return current !== null;
    },
    ready,
    async close() {
      closed = true;
      settleReady();
      if (retryTimer) clearTimeout(retryTimer);
      const c = current;
      current = null;
      await c?.end({ timeout: 1 }).catch(() => {});
    },
  };
}

export interface Waker {
  /** Settles once LISTEN is first attempted (see Listener.ready). */
  readonly ready: Promise<void>;
  /** Ends the current sleep now (a key pressed, a decision made). */
  wake(): void;
  /** Waits up to `ms`, or until a matching NOTIFY (or `wake()`, or LISTEN coming back after a loss) ends it: the poll covers a lost NOTIFY. */
  sleep(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** A reader that follows the log: it sleeps between reads and a NOTIFY matching `matches` wakes it. */
export function wakeOnNotify(url: string, channel: string, opts: { applicationName: string; matches(payload: string): boolean }): Waker {
  let wake: () => void = () => {};
  const listener = listenToChannel(url, channel, { applicationName: opts.applicationName, onPayload: (p) => opts.matches(p) && wake(), onListening: (reconnected) => reconnected && wake() });
  return {
    ready: listener.ready,
    wake: () => wake(),
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      }),
    close: () => listener.close(),
  };
}
