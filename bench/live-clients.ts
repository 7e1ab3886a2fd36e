/**
 * One client process of `npm run bench:live` (bench/live.ts forks it): holds its share of the socket.io
 * clients, subscribes each to the bench's mission and notes when each event reached each client, on the
 * machine's monotonic clock (process.hrtime, the same in every process: the parent notes commits on it).
 * Several processes stand for many browsers, each decoding its own messages; the clients themselves are
 * what the console runs (socket.io-client, websocket transport, the session cookie).
 *
 * Messages from the parent: {type: "start", urls, token, missionId, clients: [[index, web], …]} → "connected"
 * once every client is in; {type: "missing", seq} → how many of its clients lack that seq;
 * {type: "report"} → every arrival as (web, seq, at) triplets in one Float64Array, then it exits.
 */
import { io as connect, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "../lib/realtime/protocol";

type Start = { type: "start"; urls: string[]; token: string; missionId: string; clients: Array<[number, number]> };
type Ask = Start | { type: "missing"; seq: number } | { type: "report" };

/** Milliseconds on the monotonic clock every process of this machine shares (bench/live.ts notes commits on it). */
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

const sockets: Array<Socket<ServerToClientEvents, ClientToServerEvents>> = [];
const seen: Array<Set<number>> = [];
let arrivals = new Float64Array(3 * 65_536);
let n = 0;

function note(web: number, seq: number, at: number) {
  if (3 * (n + 1) > arrivals.length) {
    const grown = new Float64Array(arrivals.length * 2);
    grown.set(arrivals);
    arrivals = grown;
  }
  arrivals[3 * n] = web;
  arrivals[3 * n + 1] = seq;
  arrivals[3 * n + 2] = at;
  n++;
}

async function start(msg: Start) {
  await Promise.all(
    msg.clients.map(([index, web]) => {
      const s: Socket<ServerToClientEvents, ClientToServerEvents> = connect(msg.urls[web], { path: "/socket.io", transports: ["websocket"], extraHeaders: { cookie: `next-auth.session-token=${msg.token}` }, reconnection: false, timeout: 60_000 });
      const mine = new Set<number>();
      sockets.push(s);
      seen.push(mine);
      s.on("mission:events", (m) => {
        const at = monotonicMs();
        for (const e of m.events) {
          if (mine.has(e.seq)) continue;
          mine.add(e.seq);
          note(web, e.seq, at);
        }
      });
      return new Promise<void>((resolve, reject) => {
        s.once("connect_error", (e) => reject(new Error(`client ${index} could not connect to web ${web + 1}: ${e.message}`)));
        s.once("connect", () => {
          s.emit("subscribe:mission", { missionId: msg.missionId, lastSeq: 1 });
          resolve();
        });
      });
    }),
  );
}

process.on("message", (msg: Ask) => {
  if (msg.type === "start") {
    start(msg).then(
      () => process.send!({ type: "connected" }),
      (e: unknown) => process.send!({ type: "failed", message: e instanceof Error ? e.message : String(e) }),
    );
  } else if (msg.type === "missing") {
    process.send!({ type: "missing", count: seen.filter((s) => !s.has(msg.seq)).length });
  } else if (msg.type === "report") {
    for (const s of sockets) s.close();
    process.send!({ type: "report", arrivals: arrivals.slice(0, 3 * n) }, () => process.exit(0));
  }
});
process.on("disconnect", () => process.exit(0));
