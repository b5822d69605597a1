/** Assumed wire names of the video resource (see index.ts); filled by its issue. */
export {};
