export declare const chromiumPath: () => string;
export declare function chromiumMissing(): string | null;
