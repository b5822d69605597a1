/**
 * What the Node running the tests offers that the package uses only where it
 * exists. Node 21 and newer have `ArrayBuffer.prototype.transfer`, with which
 * releaseBuffer (nodes/shared/binary.ts) gives a buffer's memory back at once;
 * on Node 20 (the oldest Node n8n 1.123 and 2.0 run on) buffers are left to
 * the garbage collector. The unit suite also runs on Node 20 (`npm run test:floor`).
 */
export const RELEASES_MEMORY =
	typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function';
