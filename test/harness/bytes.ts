/** `size` bytes, byte `i` being `byteAt(i) % 256`: test files of any size, filled in place. */
export function bytesFrom(size: number, byteAt: (i: number) => number): Buffer {
	const bytes = Buffer.allocUnsafe(size);
	for (let i = 0; i < size; i++) bytes[i] = byteAt(i) % 256;
	return bytes;
}
