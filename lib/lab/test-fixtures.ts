/**
 * Suite text for tests: a scenario whose critical fetch a 429 fails once. Its recovery's helper steps
 * work (`ok`: the auto policy recovers it) or fail (`fail`: the operator, who aborts, gets the gate).
 * `secret`: the request carries an Authorization header (for the traces' redaction).
 */
export function rateLimitScenario(helpers: "ok" | "fail", opts: { secret?: string } = {}): string {
  const headers = opts.secret ? `, headers: { Authorization: "Bearer ${opts.secret}" }` : "";
  return `
  - name: rate limit
    mission:
      name: fetch
      objective: fetch
      recovery: auto
      phases:
        - name: EXECUTION
          agents:
            - { name: fetch, priority: critical, steps: [{ tool: http, args: { url: "http://api.internal/v1/x", method: GET${headers} } }] }
    faults:
      - { at: fetch/0, type: rate_limited, helpers: ${helpers} }
    operator: { otherwise: abort }
    expect: { finalStatus: SUCCESS, recovered: true }`;
}
