/** Assumed wire names of the image resource (see index.ts); filled by its issue. */
export {};
