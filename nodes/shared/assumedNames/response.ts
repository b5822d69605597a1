/** Assumed wire names of the response resource (see index.ts); filled by its issue. */
export {};
