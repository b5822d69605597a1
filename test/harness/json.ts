/**
 * A JSON value a test has just read and reaches into by path (`body.content[0].source.data`): the
 * test's assertions check its shape, so typing every access would only restate them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one loose type the tests share
export type LooseJson = Record<string, any>;
