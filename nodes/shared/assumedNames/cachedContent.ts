/** Assumed wire names of the cachedContent resource (see index.ts); filled by its issue. */
export {};
