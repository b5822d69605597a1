/**
 * A small but real lossless WebP encoder (RIFF "WEBP" + "VP8L" chunk) for the
 * simulator. The picture uses two colours; each channel is coded with a
 * "simple" prefix code of one or two symbols (VP8L spec, section 3.7.2.1.1),
 * so a pixel costs at most 3 bits and the stream needs no Huffman tables.
 * Checked with libwebp while writing it.
 */

export type Rgba = readonly [number, number, number, number];

class LsbBitWriter {
	/** The bytes written so far: the first `length` of a buffer that doubles when full. */
	private bytes = Buffer.allocUnsafe(1024);

	private length = 0;

	private current = 0;

	private count = 0;

	write(value: number, length: number): void {
		for (let i = 0; i < length; i++) {
			this.current |= ((value >> i) & 1) << this.count;
			if (++this.count === 8) this.push();
		}
	}

	end(): Buffer {
		if (this.count) this.push();
		return Buffer.from(this.bytes.subarray(0, this.length));
	}

	private push(): void {
		if (this.length === this.bytes.length) {
			const larger = Buffer.allocUnsafe(this.bytes.length * 2);
			this.bytes.copy(larger);
			this.bytes = larger;
		}
		this.bytes[this.length++] = this.current;
		this.current = 0;
		this.count = 0;
	}
}

/** A simple prefix code over the symbols a channel uses (1 or 2 distinct values). */
function simpleCode(writer: LsbBitWriter, symbols: number[]): void {
	const distinct = [...new Set(symbols)].sort((a, b) => a - b);
	writer.write(1, 1); // simple code
	writer.write(distinct.length - 1, 1);
	const first = distinct[0];
	if (first < 2) {
		writer.write(0, 1); // is_first_8bits = 0: a 1-bit symbol
		writer.write(first, 1);
	} else {
		writer.write(1, 1);
		writer.write(first, 8);
	}
	if (distinct.length === 2) writer.write(distinct[1], 8);
}

/** `which(x, y)` picks colour 0 or 1 for each pixel. */
export function encodeWebp(
	width: number,
	height: number,
	colours: [Rgba, Rgba],
	which: (x: number, y: number) => 0 | 1,
): Buffer {
	const writer = new LsbBitWriter();
	const alpha = colours[0][3] < 255 || colours[1][3] < 255;
	writer.write(0x2f, 8); // signature
	writer.write(width - 1, 14);
	writer.write(height - 1, 14);
	writer.write(alpha ? 1 : 0, 1);
	writer.write(0, 3); // version
	writer.write(0, 1); // no transform
	writer.write(0, 1); // no colour cache
	writer.write(0, 1); // no meta prefix codes
	// Prefix codes in VP8L order: green, red, blue, alpha, distance.
	const channel = [1, 0, 2, 3];
	for (const c of channel) simpleCode(writer, [colours[0][c], colours[1][c]]);
	simpleCode(writer, [0]);
	// With two symbols the smaller value has code 0 (canonical order); one symbol costs no bit.
	const bitsOf = channel.map((c) => {
		const [a, b] = [colours[0][c], colours[1][c]];
		return a === b ? undefined : [a < b ? 0 : 1, a < b ? 1 : 0];
	});
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const pick = which(x, y);
			for (const bits of bitsOf) if (bits) writer.write(bits[pick], 1);
		}
	}
	const data = writer.end();
	const padded = data.length % 2 ? Buffer.concat([data, Buffer.alloc(1)]) : data;
	const header = Buffer.alloc(20);
	header.write('RIFF', 0, 'latin1');
	header.writeUInt32LE(4 + 8 + padded.length, 4);
	header.write('WEBP', 8, 'latin1');
	header.write('VP8L', 12, 'latin1');
	header.writeUInt32LE(data.length, 16);
	return Buffer.concat([header, padded]);
}
