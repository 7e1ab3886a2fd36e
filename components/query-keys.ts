/** Every react-query key in one place, so invalidation after a mutation or a live event hits the right data. */
export const queryKeys = {
  missions: {
    all: ["missions"] as const,
    list: () => ["missions", "list"] as const,
    detail: (id: string) => ["missions", "detail", id] as const,
    /** The timeline's pages of events (issue 19), per filter: outside "missions", so invalidating missions never refetches every page. */
    eventPages: (id: string, type: string, agent: string) => ["timeline-pages", id, type, agent] as const,
    /** A projection mode's model-call lines as of the mission's last seq, and debug's state at a seq (never changes once written). */
    projection: (id: string, mode: string, lastSeq: number) => ["missions", "projection", id, mode, lastSeq] as const,
    debugAt: (id: string, seq: number) => ["mission-debug", id, seq] as const,
  },
  gates: {
    all: ["gates"] as const,
    open: () => ["gates", "open"] as const,
  },
  diagnoses: {
    feedback: (id: string) => ["diagnoses", "feedback", id] as const,
  },
  lab: {
    runs: () => ["lab", "runs"] as const,
    run: (id: string) => ["lab", "run", id] as const,
  },
};
