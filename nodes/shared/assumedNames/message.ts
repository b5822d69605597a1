/** Assumed wire names of the message resource (see index.ts); filled by its issue. */
export {};
