import { io } from "socket.io-client";
import { expect, test } from "./fixtures";

test.describe("the REST API and the socket refuse bad input and missing sessions with specific errors", () => {
  test("malformed and invalid requests get 4xx JSON errors that say what to fix, never a 500", async ({ operatorPage: page }) => {
    const malformed = await page.request.post("/api/v1/missions", { headers: { "content-type": "application/json" }, data: Buffer.from("{not json") });
    expect(malformed.status()).toBe(400);
    expect((await malformed.json()).error.message).toMatch(/JSON/i);

    const invalid = await page.request.post("/api/v1/missions", { data: { name: "x", objective: "y", phases: [{ name: "LAUNCH", agents: [] }] } });
    expect(invalid.status()).toBe(422);
    const body = await invalid.json();
    expect(JSON.stringify(body.error)).toContain("phases[0].name");

    const notAnId = await page.request.get("/api/v1/missions/not-a-uuid");
    expect(notAnId.status()).toBe(404);
    expect((await notAnId.json()).error.message).toBeTruthy();

    const badDecision = await page.request.post("/api/v1/gates/00000000-0000-4000-8000-000000000000/decision", { data: { decision: "maybe" } });
    expect([400, 422]).toContain(badDecision.status());
    expect(JSON.stringify(await badDecision.json())).toMatch(/must be one of retry, skip, abort/);

    const noGate = await page.request.post("/api/v1/gates/00000000-0000-4000-8000-000000000000/decision", { data: { decision: "retry" } });
    expect(noGate.status()).toBe(404);
  });

  test("the socket handshake refuses a browser without a session", async () => {
    const socket = io(process.env.E2E_BASE_URL!, { path: "/socket.io", transports: ["websocket"], reconnection: false });
    const message = await new Promise<string>((resolve) => {
      socket.on("connect", () => resolve("connected"));
      socket.on("connect_error", (e) => resolve(e.message));
    });
    socket.close();
    expect(message).toMatch(/sign in/i);
  });
});

// Browsers ask for /favicon.ico before (or instead of) reading the page's icon link: a 404 there is a
// console error on every first visit.
test("the favicon browsers ask for exists", async ({ request }) => {
  const res = await request.get("/favicon.ico");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/icon/);
});
