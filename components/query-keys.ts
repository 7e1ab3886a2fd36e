/** Every react-query key in one place, so invalidation after a mutation or a live event hits the right data. */
export const queryKeys = {
  missions: {
    all: ["missions"] as const,
    list: () => ["missions", "list"] as const,
    detail: (id: string) => ["missions", "detail", id] as const,
  },
  gates: {
    all: ["gates"] as const,
    open: () => ["gates", "open"] as const,
  },
  diagnoses: {
    feedback: (id: string) => ["diagnoses", "feedback", id] as const,
  },
};
