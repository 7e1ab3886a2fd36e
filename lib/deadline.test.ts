import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline, TimeLimitExceeded, withTimeout } from "./deadline";
import { probeProvider } from "./llm/client";
import { startFakeLlmServer, type FakeLlmServer } from "./llm/test-server";
import { stall } from "./test-helpers";

describe("time limits measure the other side, not this process's stalls", () => {
  let echo: net.Server;
  let port: number;
  beforeAll(async () => {
    echo = net.createServer((s) => s.once("data", () => s.end("pong")));
    await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
    port = (echo.address() as net.AddressInfo).port;
  });
  afterAll(() => echo.close());

  /** A request that leaves only after a stall that starts now (it is written in the check phase of the turn after it). */
  const requestAfterStall = () =>
    new Promise<string>((resolve, reject) =>
      setImmediate(() => {
        const c = net.connect(port, "127.0.0.1", () => c.write("ping"));
        c.once("data", (d) => resolve(d.toString())).once("error", reject);
      }),
    );

  it("a stall before the request is even written does not use up the other side's time: the budget starts again", async () => {
    const answered = withTimeout(requestAfterStall(), 1000, "The echo server");
    stall(2500);
    await expect(answered).resolves.toBe("pong");
  });

  it("a side that never answers is still a timeout, named and timed", async () => {
    const err = await withTimeout(new Promise(() => {}), 100, "Nobody").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeLimitExceeded);
    expect((err as Error).message).toBe("Nobody did not answer within 100 ms");
  });

  it("a cancelled deadline never expires", async () => {
    let expired = false;
    const cancel = deadline(20, () => (expired = true));
    cancel();
    // Wait for a later deadline of the same kind: had the first been left armed, it would have expired before this one.
    await new Promise<void>((r) => deadline(60, r));
    expect(expired).toBe(false);
  });

  describe("the LLM provider probe", () => {
    let llm: FakeLlmServer;
    beforeAll(async () => (llm = await startFakeLlmServer()));
    afterAll(async () => llm?.close());

    it("is healthy after the process stalled past its limit with the request in flight", async () => {
      const probe = probeProvider(llm.provider("ok", { timeoutMs: 1000 }), { timeoutMs: 1000 });
      stall(2500);
      const r = await probe;
      expect(r.problem).toBeNull();
      expect(r.health.status).toBe("healthy");
    });
  });
});
