import { describe, expect, it } from "vitest";
import { describeConnectionError, isConnectionError } from "./db-outage";

/** Error shapes as postgres.js and drizzle throw them (code, message, the drizzle wrapper's cause). */
const closed = Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:43843"), { code: "CONNECTION_CLOSED" });
const wrapped = Object.assign(new Error('Failed query: update "missions" set "lease_expires_at" = now()\nparams: 1'), { cause: closed });
const tooMany = Object.assign(new Error("sorry, too many clients already"), { code: "53300" });
const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
const terminated = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });

describe("a database outage in an operator's words", () => {
  it("says what happened to the connection, with the driver's code and the server's address", () => {
    expect(describeConnectionError(closed)).toBe("the connection to PostgreSQL at 127.0.0.1:43843 was cut (CONNECTION_CLOSED)");
    expect(describeConnectionError(wrapped)).toBe("the connection to PostgreSQL at 127.0.0.1:43843 was cut (CONNECTION_CLOSED)");
    expect(describeConnectionError(refused)).toBe("PostgreSQL at 127.0.0.1:5432 refused the connection: the server is down or not listening (ECONNREFUSED)");
  });

  it("keeps the server's own words when it sent some", () => {
    expect(describeConnectionError(tooMany)).toBe("sorry, too many clients already");
    expect(describeConnectionError(terminated)).toBe("terminating connection due to administrator command");
    for (const e of [closed, wrapped, tooMany, refused, terminated]) expect(isConnectionError(e)).toBe(true);
  });
});
