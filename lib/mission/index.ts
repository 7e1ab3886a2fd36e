export * from "./definition";
export * from "./events";
export * from "./types";
export * from "./reducer";
export * from "./status";
export * from "./failure";
export * from "./next-action";
export * as transitions from "./transitions";
export * from "./simulate";
