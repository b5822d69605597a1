/** Assumed wire names of the speech resource (see index.ts); filled by its issue. */
export {};
