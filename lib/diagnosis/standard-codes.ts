import type { ErrorType } from "./types";

/**
 * Error codes defined by a standard that every product prints the same way (issue 18): a database driver prints a
 * SQLSTATE, a curl wrapper passes curl's exit code through, a gRPC client names the status. One table per standard,
 * data not regex sprawl; each code is read only where it appears AS a code ("SQLSTATE 42P01", "ERROR 1045 (28000)",
 * "curl: (6)", "code = Unavailable"), never from any word of its shape. A code several types print (a class of codes,
 * RESOURCE_EXHAUSTED, a file that is not found) is weighted low and marked coarse, as the errno table in classify.ts is:
 * a specific statement of another type explains it away. docs/diagnosis-benchmark.md cites each standard's reference.
 */
export interface CodeEvidence {
  type: ErrorType;
  weight: number;
  variant?: string;
  coarse?: boolean;
}

/** One code found in the text: which table, the code as printed, what it means. */
export interface StandardCodeHit extends CodeEvidence {
  /** The table: sqlstate, postgres (a server message read as its SQLSTATE), oci (container registries), mysql, sqlite, mongo, grpc, curl, win32, errno_number. */
  standard: string;
  code: string;
  /** Phrase rules (classify.ts ids) that read this message as something else; the code explains them away. */
  misreads?: readonly string[];
}

// ---------------------------------------------------------------- SQLSTATE (SQL standard; PostgreSQL Appendix A; MySQL maps to it)

/** Specific SQLSTATE codes, and classes (two characters) for codes not listed. */
const SQLSTATE_CODES: Record<string, CodeEvidence> = {
  "28000": { type: "permission_denied", weight: 0.85, variant: "credentials_rejected" }, // invalid_authorization_specification
  "28P01": { type: "permission_denied", weight: 0.9, variant: "credentials_rejected" }, // invalid_password
  "42501": { type: "permission_denied", weight: 0.85 }, // insufficient_privilege
  "42601": { type: "syntax_error", weight: 0.85 }, // syntax_error
  "42P01": { type: "invalid_arguments", weight: 0.8, variant: "resource_not_found" }, // undefined_table
  "42703": { type: "invalid_arguments", weight: 0.8, variant: "resource_not_found" }, // undefined_column
  "42883": { type: "invalid_arguments", weight: 0.8, variant: "resource_not_found" }, // undefined_function
  "42704": { type: "invalid_arguments", weight: 0.8, variant: "resource_not_found" }, // undefined_object
  "42S02": { type: "invalid_arguments", weight: 0.8, variant: "resource_not_found" }, // ODBC: base table or view not found
  "42S22": { type: "invalid_arguments", weight: 0.8, variant: "resource_not_found" }, // ODBC: column not found
  "3F000": { type: "invalid_arguments", weight: 0.75, variant: "resource_not_found" }, // invalid_schema_name
  "3D000": { type: "invalid_arguments", weight: 0.75, variant: "resource_not_found" }, // invalid_catalog_name: the database named does not exist (as MySQL 1049)
  "57014": { type: "timeout", weight: 0.8 }, // query_canceled (statement_timeout; a cancel request prints it too)
  // too_many_connections: the server's connection limit, free again later; it outweighs the "failed to connect" it comes with
  "53300": { type: "rate_limited", weight: 0.9 },
  "54000": { type: "output_too_large", weight: 0.7 }, // program_limit_exceeded
  "54001": { type: "output_too_large", weight: 0.7 }, // statement_too_complex
  "54011": { type: "output_too_large", weight: 0.7 }, // too_many_columns
  "57P01": { type: "network_error", weight: 0.7, variant: "connection_reset" }, // admin_shutdown
  "57P03": { type: "network_error", weight: 0.7 }, // cannot_connect_now
};
/**
 * PostgreSQL's own messages, for clients that print them without their SQLSTATE (psql and libpq at the default verbosity,
 * node-postgres, lib/pq, psycopg, JDBC): the server's message catalogue (errmsg with its errcode in the server's source),
 * the same words whatever the client, so each reads as its code. A role missing at log-in ("FATAL: role … does not exist")
 * is a refused authorization (28000); one missing in a statement (GRANT … TO x) an undefined object (42704). The
 * connection-time messages follow libpq's "connection to server … failed:", which alone says only that a connection
 * attempt ended: the server answered, and its reason decides.
 */
const POSTGRES_MESSAGES: readonly { re: RegExp; code: string; ev?: CodeEvidence; misreads?: readonly string[] }[] = [
  { re: /\bFATAL:\s+role "[^"\n]+" does not exist\b/, code: "28000" },
  { re: /\bno pg_hba\.conf entry for (?:host|replication connection)\b/, code: "28000" },
  { re: /\bpassword authentication failed for user\b/, code: "28P01" },
  { re: /\bdatabase "[^"\n]+" does not exist\b/, code: "3D000" },
  { re: /\bsorry, too many clients already\b|\bremaining connection slots are reserved\b/, code: "53300" },
  { re: /\bthe database system is (?:starting up|shutting down|in recovery mode|not yet accepting connections|not accepting connections)\b/, code: "57P03" },
  { re: /\bterminating connection due to administrator command\b/, code: "57P01" },
  { re: /\brelation "[^"\n]+" does not exist\b/, code: "42P01" },
  { re: /\bcolumn (?:"[^"\n]+"|[\w.]+)(?: of relation "[^"\n]+")? does not exist\b/, code: "42703" },
  // "function f(integer) does not exist" names a SQL function and its argument types, not a tool an agent lacks
  { re: /\bfunction [\w."]+\([^)\n]*\) does not exist\b|\boperator does not exist: /, code: "42883", misreads: ["tool_name_not_found"] },
  { re: /(?<!FATAL:\s+)\b(?:type|role) "[^"\n]+" does not exist\b/, code: "42704" },
  { re: /\bschema "[^"\n]+" does not exist\b/, code: "3F000" },
  {
    re: /\bpermission denied for (?:table|relation|schema|sequence|database|function|procedure|routine|view|materialized view|foreign table|language|tablespace|large object|type)\b|\bmust be owner of (?:table|relation|schema|database|function|procedure|sequence|view|materialized view|extension|type)\b/,
    code: "42501",
  },
  { re: /\bduplicate key value violates unique constraint\b/, code: "23505" },
  { re: /\bnull value in column "[^"\n]+"(?: of relation "[^"\n]+")? violates not-null constraint\b/, code: "23502" },
  { re: /\bviolates foreign key constraint\b/, code: "23503" },
  { re: /\bviolates check constraint\b/, code: "23514" },
  { re: /\binvalid input syntax for (?:type )?\w+/, code: "22P02" },
  { re: /\bcanceling statement due to statement timeout\b/, code: "57014" },
  // undefined_file, raised for an extension whose files this server does not have: it is not installed here
  {
    re: /\bextension "[^"\n]+" is not available\b|\bcould not open extension control file\b/,
    code: "58P01",
    ev: { type: "environment_missing", weight: 0.8 },
  },
];
/** What a SQLSTATE means: its own entry, else its class's. */
function sqlstateMeaning(code: string): CodeEvidence | undefined {
  return SQLSTATE_CODES[code] ?? SQLSTATE_CLASSES[code.slice(0, 2)];
}
/** Words every message above holds, so the table is read only when one of them is there (diagnose() is on every failure's path). */
const POSTGRES_MARKER = /does not exist|pg_hba|password authentication|too many clients|connection slots|database system is|administrator command|permission denied for|must be owner|violates|invalid input syntax|statement timeout|extension/;

const SQLSTATE_CLASSES: Record<string, CodeEvidence> = {
  // connection exception: libpq and PDO report every failed connection attempt as 08001/08006, a rejected password or a
  // malformed option included, so the class is coarse: the message's own statement decides when it names another cause
  "08": { type: "network_error", weight: 0.55, coarse: true },
  "22": { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" }, // data exception
  "23": { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" }, // integrity constraint violation
  "28": { type: "permission_denied", weight: 0.8, variant: "credentials_rejected" }, // invalid authorization specification
  // syntax error or access rule violation: mostly undefined or mistyped objects; 42000 is what MySQL maps both its parse
  // error and some access denials to, so the class alone is coarse (the MySQL number decides).
  "42": { type: "invalid_arguments", weight: 0.4, coarse: true },
};

// ---------------------------------------------------------------- MySQL / MariaDB error numbers (server 1xxx-3xxx, client 2xxx)

const MYSQL_ERRORS: Record<string, CodeEvidence> = {
  "1044": { type: "permission_denied", weight: 0.9, variant: "credentials_rejected" }, // ER_DBACCESS_DENIED_ERROR
  "1045": { type: "permission_denied", weight: 0.9, variant: "credentials_rejected" }, // ER_ACCESS_DENIED_ERROR
  "1142": { type: "permission_denied", weight: 0.85 }, // ER_TABLEACCESS_DENIED_ERROR
  "1143": { type: "permission_denied", weight: 0.85 }, // ER_COLUMNACCESS_DENIED_ERROR
  "1227": { type: "permission_denied", weight: 0.85 }, // ER_SPECIFIC_ACCESS_DENIED_ERROR
  "1064": { type: "syntax_error", weight: 0.9 }, // ER_PARSE_ERROR
  "1146": { type: "invalid_arguments", weight: 0.8, variant: "resource_not_found" }, // ER_NO_SUCH_TABLE
  "1054": { type: "invalid_arguments", weight: 0.8, variant: "resource_not_found" }, // ER_BAD_FIELD_ERROR
  "1049": { type: "invalid_arguments", weight: 0.75, variant: "resource_not_found" }, // ER_BAD_DB_ERROR
  "1062": { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" }, // ER_DUP_ENTRY
  "1048": { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" }, // ER_BAD_NULL_ERROR
  "1366": { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" }, // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
  "1406": { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" }, // ER_DATA_TOO_LONG
  "1452": { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" }, // ER_NO_REFERENCED_ROW_2
  "1040": { type: "rate_limited", weight: 0.9 }, // ER_CON_COUNT_ERROR: too many connections
  "1203": { type: "rate_limited", weight: 0.9 }, // ER_TOO_MANY_USER_CONNECTIONS
  "1205": { type: "timeout", weight: 0.8 }, // ER_LOCK_WAIT_TIMEOUT
  "3024": { type: "timeout", weight: 0.85 }, // ER_QUERY_TIMEOUT (max_execution_time)
  "1153": { type: "output_too_large", weight: 0.85, variant: "request_too_large" }, // ER_NET_PACKET_TOO_LARGE
  "2002": { type: "network_error", weight: 0.85, variant: "connection_refused" }, // CR_CONNECTION_ERROR (local socket)
  "2003": { type: "network_error", weight: 0.85, variant: "connection_refused" }, // CR_CONN_HOST_ERROR
  "2005": { type: "network_error", weight: 0.85, variant: "dns_resolution_failed" }, // CR_UNKNOWN_HOST
  "2006": { type: "network_error", weight: 0.8, variant: "connection_reset" }, // CR_SERVER_GONE_ERROR
  "2013": { type: "network_error", weight: 0.8, variant: "connection_reset" }, // CR_SERVER_LOST
};

// ---------------------------------------------------------------- SQLite primary result codes (sqlite.org/rescode.html)

const SQLITE_RESULTS: Record<string, CodeEvidence> = {
  PERM: { type: "permission_denied", weight: 0.85, variant: "filesystem_permission" },
  READONLY: { type: "permission_denied", weight: 0.8, variant: "filesystem_permission" },
  AUTH: { type: "permission_denied", weight: 0.85 },
  BUSY: { type: "timeout", weight: 0.6, coarse: true }, // the database file is locked: the busy handler gave up waiting
  LOCKED: { type: "timeout", weight: 0.5, coarse: true },
  TOOBIG: { type: "output_too_large", weight: 0.85 },
  CONSTRAINT: { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" },
  MISMATCH: { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" },
  RANGE: { type: "invalid_arguments", weight: 0.75 },
  NOTADB: { type: "invalid_arguments", weight: 0.6 },
  // unable to open the database file: a wrong path, a missing directory or a permission, coarse as ENOENT is
  CANTOPEN: { type: "invalid_arguments", weight: 0.45, variant: "path_not_found", coarse: true },
};

// ---------------------------------------------------------------- MongoDB server error codeName / code (error_codes.yml)

const MONGO_CODES: Record<string, CodeEvidence> = {
  Unauthorized: { type: "permission_denied", weight: 0.85 }, // 13
  AuthenticationFailed: { type: "permission_denied", weight: 0.9, variant: "credentials_rejected" }, // 18
  DuplicateKey: { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" }, // 11000
  NamespaceNotFound: { type: "invalid_arguments", weight: 0.75, variant: "resource_not_found" }, // 26
  MaxTimeMSExpired: { type: "timeout", weight: 0.85 }, // 50
  ExceededTimeLimit: { type: "timeout", weight: 0.85 }, // 262
  NetworkTimeout: { type: "timeout", weight: 0.8 }, // 89
  HostUnreachable: { type: "network_error", weight: 0.8 }, // 6
  HostNotFound: { type: "network_error", weight: 0.8, variant: "dns_resolution_failed" }, // 7
  FailedToParse: { type: "syntax_error", weight: 0.7 }, // 9
};
const MONGO_NUMBERS: Record<string, string> = { "13": "Unauthorized", "18": "AuthenticationFailed", "11000": "DuplicateKey", "26": "NamespaceNotFound", "50": "MaxTimeMSExpired", "262": "ExceededTimeLimit", "89": "NetworkTimeout" };

// ---------------------------------------------------------------- gRPC status codes (grpc.io/docs/guides/status-codes)

/** Each status by name, with its number. */
const GRPC_STATUSES: ReadonlyArray<[number, string, CodeEvidence]> = [
  [3, "INVALID_ARGUMENT", { type: "invalid_arguments", weight: 0.75, variant: "schema_violation" }],
  [4, "DEADLINE_EXCEEDED", { type: "timeout", weight: 0.85 }],
  [5, "NOT_FOUND", { type: "invalid_arguments", weight: 0.6, variant: "resource_not_found", coarse: true }],
  [6, "ALREADY_EXISTS", { type: "invalid_arguments", weight: 0.7 }],
  [7, "PERMISSION_DENIED", { type: "permission_denied", weight: 0.85 }],
  // quotas and rate limits, but also a message over the size limit ("received message larger than max"): coarse
  [8, "RESOURCE_EXHAUSTED", { type: "rate_limited", weight: 0.6, coarse: true }],
  [11, "OUT_OF_RANGE", { type: "invalid_arguments", weight: 0.7 }],
  [14, "UNAVAILABLE", { type: "network_error", weight: 0.8 }],
  [16, "UNAUTHENTICATED", { type: "permission_denied", weight: 0.85, variant: "credentials_rejected" }],
];
const GRPC_STATUS: Record<string, CodeEvidence> = Object.fromEntries(GRPC_STATUSES.map(([, name, ev]) => [name, ev]));
const GRPC_NUMBERS: Record<string, string> = Object.fromEntries(GRPC_STATUSES.map(([n, name]) => [String(n), name]));

// ---------------------------------------------------------------- curl exit codes (curl(1) EXIT CODES; libcurl-errors)

/** curl documents its own exit codes: read from its exit status (classify.ts) or from "curl: (N)" any wrapper prints. */
export const CURL_EXIT: Record<number, CodeEvidence> = {
  1: { type: "invalid_arguments", weight: 0.75 }, // unsupported protocol
  3: { type: "invalid_arguments", weight: 0.8 }, // URL malformed
  5: { type: "network_error", weight: 0.85, variant: "dns_resolution_failed" }, // could not resolve proxy
  6: { type: "network_error", weight: 0.85, variant: "dns_resolution_failed" }, // could not resolve host
  7: { type: "network_error", weight: 0.85, variant: "connection_refused" }, // failed to connect
  9: { type: "permission_denied", weight: 0.75 }, // remote access denied
  16: { type: "network_error", weight: 0.7 }, // HTTP/2 framing layer
  18: { type: "network_error", weight: 0.7, variant: "connection_reset" }, // partial file: the transfer was cut short
  28: { type: "timeout", weight: 0.85 }, // operation timed out
  35: { type: "network_error", weight: 0.75 }, // TLS handshake failed
  37: { type: "invalid_arguments", weight: 0.6, variant: "path_not_found" }, // FILE: could not read the file
  47: { type: "network_error", weight: 0.6 }, // too many redirects
  52: { type: "network_error", weight: 0.75, variant: "connection_reset" }, // empty reply from server
  55: { type: "network_error", weight: 0.75, variant: "connection_reset" }, // failed sending network data
  56: { type: "network_error", weight: 0.75, variant: "connection_reset" }, // failure receiving network data
  58: { type: "network_error", weight: 0.7 }, // problem with the local client certificate
  60: { type: "network_error", weight: 0.85 }, // peer certificate cannot be authenticated with known CA certificates
  63: { type: "output_too_large", weight: 0.85 }, // maximum file size exceeded
  67: { type: "permission_denied", weight: 0.8, variant: "credentials_rejected" }, // login denied
  92: { type: "network_error", weight: 0.75, variant: "connection_reset" }, // HTTP/2 stream error
  97: { type: "network_error", weight: 0.75 }, // proxy handshake error
};

// ---------------------------------------------------------------- Win32 / HRESULT / Winsock (learn.microsoft.com system error codes)

const WIN32_ERRORS: Record<string, CodeEvidence> = {
  ERROR_ACCESS_DENIED: { type: "permission_denied", weight: 0.85, variant: "filesystem_permission" }, // 5
  ERROR_PRIVILEGE_NOT_HELD: { type: "permission_denied", weight: 0.85, variant: "privilege_escalation" }, // 1314
  ERROR_ELEVATION_REQUIRED: { type: "permission_denied", weight: 0.85, variant: "privilege_escalation" }, // 740
  ERROR_FILE_NOT_FOUND: { type: "invalid_arguments", weight: 0.4, variant: "path_not_found", coarse: true }, // 2
  ERROR_PATH_NOT_FOUND: { type: "invalid_arguments", weight: 0.4, variant: "path_not_found", coarse: true }, // 3
  ERROR_INVALID_PARAMETER: { type: "invalid_arguments", weight: 0.75 }, // 87
  ERROR_TIMEOUT: { type: "timeout", weight: 0.8 }, // 1460
  ERROR_SEM_TIMEOUT: { type: "timeout", weight: 0.8 }, // 121
  WSAECONNREFUSED: { type: "network_error", weight: 0.85, variant: "connection_refused" }, // 10061
  WSAETIMEDOUT: { type: "timeout", weight: 0.75 }, // 10060
  WSAECONNRESET: { type: "network_error", weight: 0.8, variant: "connection_reset" }, // 10054
  WSAHOST_NOT_FOUND: { type: "network_error", weight: 0.85, variant: "dns_resolution_failed" }, // 11001
  WSAENETUNREACH: { type: "network_error", weight: 0.85 }, // 10051
  WSAEACCES: { type: "permission_denied", weight: 0.75 }, // 10013
};
/** HRESULTs of Win32 errors (0x8007xxxx = FACILITY_WIN32) and Winsock numbers, by name. */
const WIN32_NUMBERS: Record<string, string> = {
  "0x80070005": "ERROR_ACCESS_DENIED", "0x80070002": "ERROR_FILE_NOT_FOUND", "0x80070003": "ERROR_PATH_NOT_FOUND", "0x80070057": "ERROR_INVALID_PARAMETER",
  "0x800705b4": "ERROR_TIMEOUT", "0x800702e4": "ERROR_ELEVATION_REQUIRED", "0x80070522": "ERROR_PRIVILEGE_NOT_HELD",
  "10061": "WSAECONNREFUSED", "10060": "WSAETIMEDOUT", "10054": "WSAECONNRESET", "11001": "WSAHOST_NOT_FOUND", "10051": "WSAENETUNREACH", "10013": "WSAEACCES",
};

// ---------------------------------------------------------------- errno numbers as printed by Python/libc ("[Errno 111]")

/** Linux errno numbers (and the BSD/macOS numbers of the network ones, which no Linux error of note shares) → names of classify.ts's errno table. */
export const ERRNO_NUMBERS: Record<string, string> = {
  "1": "EPERM", "13": "EACCES", "20": "ENOTDIR", "21": "EISDIR", "30": "EROFS", "32": "EPIPE", "104": "ECONNRESET", "110": "ETIMEDOUT",
  "111": "ECONNREFUSED", "113": "EHOSTUNREACH", "101": "ENETUNREACH", "-2": "ENOTFOUND", "-3": "EAI_AGAIN", "-5": "ENOTFOUND",
  "61": "ECONNREFUSED", "60": "ETIMEDOUT", "54": "ECONNRESET", "65": "EHOSTUNREACH",
};

// ---------------------------------------------------------------- OCI distribution (container registries: Docker Hub, GHCR, ECR, Harbor…)

/**
 * The error codes of the OCI distribution specification, which every container registry answers with and every client
 * (docker, podman, containerd, crane, skopeo, helm for OCI charts) prints: as the code, or as docker does, the code's words
 * before its message ("manifest unknown: manifest unknown", "name unknown: repository name not known to registry").
 */
const OCI_DISTRIBUTION: Record<string, CodeEvidence> = {
  MANIFEST_UNKNOWN: { type: "invalid_arguments", weight: 0.8, variant: "resource_not_found" }, // the tag or digest is not in the repository
  NAME_UNKNOWN: { type: "invalid_arguments", weight: 0.8, variant: "resource_not_found" }, // no repository of that name
  BLOB_UNKNOWN: { type: "invalid_arguments", weight: 0.75, variant: "resource_not_found" },
  MANIFEST_INVALID: { type: "invalid_arguments", weight: 0.75 },
  NAME_INVALID: { type: "invalid_arguments", weight: 0.8 },
  TAG_INVALID: { type: "invalid_arguments", weight: 0.8 },
  DIGEST_INVALID: { type: "invalid_arguments", weight: 0.75 },
  TOOMANYREQUESTS: { type: "rate_limited", weight: 0.9 },
};
const OCI_IN_TEXT =
  /\b(MANIFEST_UNKNOWN|NAME_UNKNOWN|BLOB_UNKNOWN|MANIFEST_INVALID|NAME_INVALID|TAG_INVALID|DIGEST_INVALID|TOOMANYREQUESTS)\b|\b(manifest unknown|name unknown|blob unknown|manifest invalid|name invalid|tag invalid|digest invalid|toomanyrequests): |\b(repository name not known to registry|blob unknown to registry)\b/g;
const OCI_MESSAGES: Record<string, string> = { "repository name not known to registry": "NAME_UNKNOWN", "blob unknown to registry": "BLOB_UNKNOWN" };

// ---------------------------------------------------------------- reading codes where they appear as codes

/** Five characters of digits and capitals, at least one a digit (every SQLSTATE has one: 42P01, HY000, P0001). */
const SQLSTATE_SHAPE = /^(?=.*\d)[0-9A-Z]{5}$/;
/** "SQLSTATE 42P01", "(SQLSTATE 42601)", "SQLSTATE[42S02]", "SQLState: 08001", "sqlstate=28P01", MySQL "ERROR 1045 (28000)", node-postgres "code: '23505'". */
const SQLSTATE_IN_TEXT: readonly RegExp[] = [
  /\bSQL ?STATE\s*(?:[:=]\s*|\[|\s)\s*["']?([0-9A-Z]{5})\b/gi,
  /\b(?:ERROR|Error) \d{4} \(([0-9A-Z]{5})\)/g,
  /\b(?:code|pgcode|sqlState)["']?\s*[:=]\s*["']([0-9]{2}[0-9A-Z]{3})["']/g,
];
/** MySQL numbers: "ERROR 1045 (28000)", "Error 1064:", "Error Code: 1146", "MySQL error 2002", pymysql "(2003, \"Can't connect…\")". */
const MYSQL_IN_TEXT: readonly RegExp[] = [
  /\bERROR (\d{4}) \([0-9A-Z]{5}\)/gi,
  /\bError (\d{4})(?: \([0-9A-Z]{5}\))?: /g,
  /\b(?:MySQL|MariaDB|mysqli?)(?:[ _]error)?(?: code)?[ :#]+\(?(\d{4})\b/gi,
  /\bError Code: (\d{4})\b/g,
  /\b(?:Operational|Programming|Integrity|Data|Internal|Interface|NotSupported)Error\)?:? \((\d{4}), ["']/g,
];
const MYSQL_MARKER = /\b(?:ERROR|Error) \d{4}\b|Error\)?:? \(\d{4}, |\b(?:MySQL|MariaDB|mysqli?)\b|\bError Code: \d{4}/i;
const SQLITE_IN_TEXT = /\bSQLITE_([A-Z]+)(?:_[A-Z]+)*\b/g;
const MONGO_IN_TEXT: readonly RegExp[] = [
  /\bcodeName["']?\s*[:=]\s*["']([A-Za-z]+)["']/g,
  /\bMongo\w*Error\b[^\n]*?\bcode[:=\s]+(\d{1,5})\b/g,
  /\b(E11000) duplicate key\b/g,
];
/**
 * gRPC: Go "rpc error: code = Unavailable desc = …", Python "StatusCode.UNAVAILABLE", Node "14 UNAVAILABLE: …",
 * Java "StatusRuntimeException: UNAVAILABLE: …", "grpc-status: 14", "status: DEADLINE_EXCEEDED" after a gRPC mention.
 */
const GRPC_IN_TEXT: readonly RegExp[] = [
  /\brpc error: code = ([A-Za-z]+)/g,
  /\bStatusCode\.([A-Z_]+)\b/g,
  /(?:^|Error: )(\d{1,2}) ([A-Z_]{7,}): /gm,
  /\bStatus(?:Runtime)?Exception: ([A-Z_]{7,})\b/g,
  /\bgrpc[-_ ]status["']?\s*[:=]\s*["']?(\d{1,2})\b/gi,
  /\bgrpc\b[^\n]*\bstatus(?: code)?\s*[:=]\s*([A-Z_]{7,})\b/gi,
];
const GRPC_MARKER = /rpc error|StatusCode\.|Status(?:Runtime)?Exception|grpc|gRPC|GRPC|\b\d{1,2} [A-Z_]{7,}: /;
/** curl's code as it prints it ("curl: (6) Could not resolve host") and as git's HTTP transport reports it ("RPC failed; curl 56 …"). */
const CURL_IN_TEXT = /\bcurl: \((\d{1,2})\)|\bRPC failed; curl (\d{1,2})\b|\bcurl error:? \(?(\d{1,2})\)?[: ]/g;
const WIN32_IN_TEXT = /\b((?:ERROR|WSAE?)_?[A-Z_]{4,})\b|\b(0x8007[0-9A-Fa-f]{4})\b|\b(?:WinError|WSA error|socket error|Winsock error)[ #:]*(\d{5})\b/g;
const ERRNO_NUMBER_IN_TEXT = /\[Errno (-?\d{1,3})\]/g;

/** "DeadlineExceeded" / "deadline_exceeded" → "DEADLINE_EXCEEDED". */
function grpcName(raw: string): string {
  return (/[a-z][A-Z]/.test(raw) ? raw.replace(/([a-z])([A-Z])/g, "$1_$2") : raw).toUpperCase();
}

/** Every standard code the text prints as a code, with what its standard says it means. */
export function standardCodes(raw: string): StandardCodeHit[] {
  const hits: StandardCodeHit[] = [];
  const add = (standard: string, code: string, ev: CodeEvidence | undefined) => {
    if (ev) hits.push({ ...ev, standard, code });
  };
  // Each table's patterns run only when a cheap test finds its marker: diagnose() is on every failed call's path.
  if (/sql ?state|ERROR \d{4} \(|\b(?:code|pgcode|sqlState)["']?\s*[:=]\s*["']\d\d/i.test(raw))
    for (const re of SQLSTATE_IN_TEXT)
      for (const m of raw.matchAll(re)) {
        const code = m[1].toUpperCase();
        if (SQLSTATE_SHAPE.test(code)) add("sqlstate", code, sqlstateMeaning(code));
      }
  if (POSTGRES_MARKER.test(raw))
    for (const { re, code, ev, misreads } of POSTGRES_MESSAGES)
      if (re.test(raw)) {
        const meaning = ev ?? sqlstateMeaning(code);
        // the same code printed as a code too is one fact, not two
        const printed = hits.find((h) => h.standard === "sqlstate" && h.code === code);
        if (printed) printed.misreads = misreads;
        else if (meaning) hits.push({ ...meaning, standard: "postgres", code, ...(misreads ? { misreads } : {}) });
      }
  if (/unknown|invalid|toomanyrequests/i.test(raw))
    for (const m of raw.matchAll(OCI_IN_TEXT)) {
      const code = m[1] ?? m[2]?.toUpperCase().replace(" ", "_") ?? OCI_MESSAGES[m[3]];
      // one fact however many times the client repeats it
      if (!hits.some((h) => h.standard === "oci" && h.code === code)) add("oci", code, OCI_DISTRIBUTION[code]);
    }
  if (MYSQL_MARKER.test(raw)) for (const re of MYSQL_IN_TEXT) for (const m of raw.matchAll(re)) add("mysql", m[1], MYSQL_ERRORS[m[1]]);
  if (raw.includes("SQLITE_")) for (const m of raw.matchAll(SQLITE_IN_TEXT)) add("sqlite", `SQLITE_${m[1]}`, SQLITE_RESULTS[m[1]]);
  if (/codeName|Mongo|E11000/.test(raw))
    for (const re of MONGO_IN_TEXT)
      for (const m of raw.matchAll(re)) {
        const name = m[1] === "E11000" ? "DuplicateKey" : (MONGO_NUMBERS[m[1]] ?? m[1]);
        add("mongo", m[1], MONGO_CODES[name]);
      }
  if (GRPC_MARKER.test(raw))
    for (const re of GRPC_IN_TEXT)
      for (const m of raw.matchAll(re)) {
        const [, a, b] = m;
        // Node's "14 UNAVAILABLE:" reads only when the number is that name's number
        if (b !== undefined && GRPC_NUMBERS[a] !== b) continue;
        const name = b ?? (/^\d+$/.test(a) ? GRPC_NUMBERS[a] : grpcName(a));
        if (name) add("grpc", name, GRPC_STATUS[name]);
      }
  if (/curl/i.test(raw))
    for (const m of raw.matchAll(CURL_IN_TEXT)) {
      const n = m[1] ?? m[2] ?? m[3];
      add("curl", `curl ${n}`, CURL_EXIT[Number(n)]);
    }
  if (/ERROR_|WSA|0x8007|WinError|socket error|Winsock error/.test(raw))
    for (const m of raw.matchAll(WIN32_IN_TEXT)) {
      const name = m[1] ?? WIN32_NUMBERS[(m[2] ?? "").toLowerCase()] ?? WIN32_NUMBERS[m[3] ?? ""];
      if (name) add("win32", m[1] ?? m[2] ?? m[3], WIN32_ERRORS[name]);
    }
  return hits;
}

/** errno names the text prints as "[Errno N]" (Python's OSError and its subclasses), for classify.ts's errno table. */
export function errnoNamesFromNumbers(raw: string): string[] {
  if (!raw.includes("[Errno ")) return [];
  return [...raw.matchAll(ERRNO_NUMBER_IN_TEXT)].map((m) => ERRNO_NUMBERS[m[1]]).filter((n): n is string => n !== undefined);
}
