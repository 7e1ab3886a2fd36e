import { describe, expect, it } from "vitest";
import { standardCodes, errnoNamesFromNumbers } from "./standard-codes";
import { classify } from "./classify";
import { inputContextSchema } from "./types";

const read = (text: string) => standardCodes(text).map((h) => `${h.standard} ${h.code} ${h.type}${h.coarse ? " coarse" : ""}`);

describe("standard codes are read where they are printed as codes", () => {
  it("SQLSTATE in the forms drivers print, specific codes before their class", () => {
    expect(read('ERROR: relation "x" does not exist (SQLSTATE 42P01)')).toEqual(["sqlstate 42P01 invalid_arguments"]);
    expect(read("SQLSTATE[28P01]: Invalid password")).toEqual(["sqlstate 28P01 permission_denied"]);
    expect(read("  SQLState: 57014")).toEqual(["sqlstate 57014 timeout"]);
    expect(read("error: x\n  code: '23505',")).toEqual(["sqlstate 23505 invalid_arguments"]);
    expect(read("SQLSTATE 08001")).toEqual(["sqlstate 08001 network_error coarse"]);
  });
  it("MySQL numbers with their SQLSTATE, and in PyMySQL's tuple", () => {
    expect(read("ERROR 1045 (28000): Access denied for user 'a'@'b'")).toEqual(["sqlstate 28000 permission_denied", "mysql 1045 permission_denied"]);
    expect(read("ERROR 1064 (42000): You have an error in your SQL syntax")).toEqual(["sqlstate 42000 invalid_arguments coarse", "mysql 1064 syntax_error"]);
    expect(read("pymysql.err.OperationalError: (2003, \"Can't connect to MySQL server\")")).toEqual(["mysql 2003 network_error"]);
  });
  it("gRPC names in Go, Python, Node and Java forms; Node's number must be that name's", () => {
    expect(read("rpc error: code = DeadlineExceeded desc = context deadline exceeded")).toEqual(["grpc DEADLINE_EXCEEDED timeout"]);
    expect(read("status = StatusCode.UNAVAILABLE")).toEqual(["grpc UNAVAILABLE network_error"]);
    expect(read("Error: 7 PERMISSION_DENIED: caller lacks permission")).toEqual(["grpc PERMISSION_DENIED permission_denied"]);
    expect(read("Error: 3 UNAVAILABLE: whatever")).toEqual([]);
    expect(read("io.grpc.StatusRuntimeException: UNAUTHENTICATED: bad token")).toEqual(["grpc UNAUTHENTICATED permission_denied"]);
  });
  it("curl's exit code as curl prints it and as git's transport reports it", () => {
    expect(read("curl: (6) Could not resolve host: x")).toEqual(["curl curl 6 network_error"]);
    expect(read("error: RPC failed; curl 18 transfer closed")).toEqual(["curl curl 18 network_error"]);
  });
  it("SQLite, MongoDB and Win32 names, HRESULTs and Winsock numbers", () => {
    expect(read("Error: SQLITE_READONLY: attempt to write a readonly database")).toEqual(["sqlite SQLITE_READONLY permission_denied"]);
    expect(read("code: 18, codeName: 'AuthenticationFailed'")).toEqual(["mongo AuthenticationFailed permission_denied"]);
    expect(read("E11000 duplicate key error collection: a.b")).toEqual(["mongo E11000 invalid_arguments"]);
    expect(read("HRESULT: 0x80070005")).toEqual(["win32 0x80070005 permission_denied"]);
    expect(read("SocketException: WinError 10061")).toEqual(["win32 10061 network_error"]);
  });
  it("never from a word or a number of the same shape", () => {
    for (const text of [
      "the SQLSTATE value is not set", // five letters after SQLSTATE
      "code: 'ABORT'",
      'relation "tmp_42601" exists', // a code-shaped name, not printed as a code
      "retrying in 1045 ms; 2003 rows copied",
      "MySQL 8.0 started on port 3306",
      "status: RUNNING",
      "curl 7.88.1 (x86_64-pc-linux-gnu)",
      "processed 10061 records",
      "ERROR_COUNT=3",
    ]) {
      expect(read(text), text).toEqual([]);
    }
  });
  it("errno numbers as Python prints them name classify.ts's errno table", () => {
    expect(errnoNamesFromNumbers("[Errno 111] Connection refused")).toEqual(["ECONNREFUSED"]);
    expect(errnoNamesFromNumbers("[Errno -3] Temporary failure in name resolution")).toEqual(["EAI_AGAIN"]);
    expect(errnoNamesFromNumbers("Errno 13 mentioned without brackets")).toEqual([]);
  });
});

describe("PostgreSQL's own messages read as their SQLSTATE when no code is printed", () => {
  const libpq = (reason: string) => `psql: error: connection to server at "db.internal" (10.0.0.5), port 5432 failed: ${reason}`;
  const typeOf = (tool: string, text: string) =>
    classify(inputContextSchema.parse({ failure: { tool, args: {}, error: { message: text.split("\n")[0], stderr: text } } })).type;

  it("at log-in the server's reason decides, not libpq's 'connection … failed'", () => {
    expect(typeOf("psql", libpq('FATAL:  database "billing" does not exist'))).toBe("invalid_arguments");
    expect(typeOf("psql", libpq('FATAL:  role "etl" does not exist'))).toBe("permission_denied");
    expect(typeOf("psql", libpq('FATAL:  no pg_hba.conf entry for host "10.0.0.7", user "etl", database "billing", no encryption'))).toBe("permission_denied");
    expect(typeOf("psql", libpq("FATAL:  sorry, too many clients already"))).toBe("rate_limited");
    expect(typeOf("psql", libpq("FATAL:  remaining connection slots are reserved for roles with the SUPERUSER attribute"))).toBe("rate_limited");
    expect(typeOf("psql", libpq("FATAL:  the database system is starting up"))).toBe("network_error");
    // the connection itself failing stays a network failure
    expect(typeOf("psql", libpq("Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?"))).toBe("network_error");
  });

  it("statements, in the words of psql, node-postgres, lib/pq and psycopg", () => {
    expect(typeOf("psql", 'ERROR:  column "emial" does not exist\nLINE 1: select emial from users;')).toBe("invalid_arguments");
    expect(typeOf("db_query", 'error: relation "public.invoices" does not exist')).toBe("invalid_arguments");
    expect(typeOf("migrate", 'pq: schema "audit" does not exist')).toBe("invalid_arguments");
    expect(typeOf("sql_query", 'psycopg2.errors.NotNullViolation: null value in column "email" of relation "users" violates not-null constraint')).toBe("invalid_arguments");
    expect(typeOf("psql", "ERROR:  must be owner of table invoices")).toBe("permission_denied");
    expect(typeOf("psql", 'ERROR:  extension "vector" is not available\nDETAIL:  Could not open extension control file "/usr/share/postgresql/15/extension/vector.control": No such file or directory.')).toBe("environment_missing");
  });

  it("a SQL function that does not exist is a wrong argument, not a tool the agent lacks; an agent's missing function still is", () => {
    expect(typeOf("psql", "ERROR:  function gen_random_uuid() does not exist\nLINE 1: select gen_random_uuid();\nHINT:  No function matches the given name and argument types. You might need to add explicit type casts.")).toBe("invalid_arguments");
    expect(typeOf("db_query", "error: operator does not exist: integer = text")).toBe("invalid_arguments");
    expect(typeOf("agent", "Error: function get_weather does not exist in the toolset")).toBe("tool_not_found");
  });

  it("one fact when the code is printed too; nothing from other databases' or programs' words", () => {
    expect(read('ERROR: relation "x" does not exist (SQLSTATE 42P01)')).toEqual(["sqlstate 42P01 invalid_arguments"]);
    expect(read('FATAL:  role "app" does not exist')).toEqual(["postgres 28000 permission_denied"]);
    expect(read('ERROR:  role "app" does not exist')).toEqual(["postgres 42704 invalid_arguments"]);
    for (const text of [
      "Error: the file config.yaml does not exist",
      "the database is starting up, retrying",
      "permission denied for user alice on /srv",
      "extension installed: vector 0.7",
      "branch 'main' does not exist",
    ]) {
      expect(read(text), text).toEqual([]);
    }
  });
});

describe("container registries' codes (OCI distribution) and the AWS SDKs' sentence around a code", () => {
  const typeOf = (tool: string, text: string) =>
    classify(inputContextSchema.parse({ failure: { tool, args: {}, error: { message: text.split("\n")[0], stderr: text } } })).type;

  it("a registry's codes, as the code and in docker's words, once however often repeated", () => {
    expect(read("Error response from daemon: manifest for node:21-alpine3.99 not found: manifest unknown: manifest unknown")).toEqual(["oci MANIFEST_UNKNOWN invalid_arguments"]);
    expect(read('{"errors":[{"code":"NAME_UNKNOWN","message":"repository name not known to registry"}]}')).toEqual(["oci NAME_UNKNOWN invalid_arguments"]);
    expect(read("Error: failed to resolve reference: ghcr.io/acme/api:v9: blob unknown to registry")).toEqual(["oci BLOB_UNKNOWN invalid_arguments"]);
    expect(typeOf("docker", "Error response from daemon: manifest for node:21-alpine3.99 not found: manifest unknown: manifest unknown")).toBe("invalid_arguments");
    expect(typeOf("podman", "Error: initializing source docker://quay.io/acme/nope:latest: reading manifest latest in quay.io/acme/nope: name unknown: repo not found")).toBe("invalid_arguments");
    for (const text of ["unknown flag: --forse", "the name is unknown to me", "invalid manifest line 3"]) expect(read(text), text).toEqual([]);
  });

  it("'An error occurred (Code) when calling the Operation operation' reads the AWS code, and a specific statement still decides", () => {
    expect(typeOf("aws", "An error occurred (ValidationError) when calling the CreateStack operation: Template format error: Unresolved resource dependencies [MyBucket] in the Resources block of the template")).toBe("invalid_arguments");
    expect(typeOf("aws", "An error occurred (ThrottlingException) when calling the DescribeInstances operation (reached max retries: 4): Rate exceeded")).toBe("rate_limited");
    expect(typeOf("python", "botocore.exceptions.ClientError: An error occurred (NoSuchBucket) when calling the GetObject operation: The specified bucket does not exist")).toBe("invalid_arguments");
    expect(typeOf("aws", "An error occurred (ExpiredToken) when calling the GetCallerIdentity operation: The security token included in the request is expired")).toBe("permission_denied");
    // the tuning half's case: the code says ValidationException, the message says the input is too long
    expect(typeOf("python", "botocore.errorfactory.ValidationException: An error occurred (ValidationException) when calling the InvokeModel operation: Input is too long for requested model.")).toBe("output_too_large");
  });
});
