/**
 * A small but real baseline JPEG encoder (JFIF, 3 components YCbCr, 8x8
 * blocks, no subsampling) for the simulator. Each 8x8 block is one flat colour,
 * so only DC coefficients are coded: with a quantiser of 8 the quantised DC is
 * exactly (value - 128), and every block ends with EOB. Standard decoders read
 * it (checked with libjpeg while writing it); the picture looks like a mosaic.
 */

export type BlockColour = (blockX: number, blockY: number) => readonly [number, number, number];

/** Annex K luminance DC table: code counts per length 1..16, then the symbols (categories). */
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
/** The AC table needs one symbol only: 0x00, end of block, coded as a single 0 bit. */
const AC_BITS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_VALUES = [0x00];
const QUANT = 8;

/** Canonical Huffman codes from the counts per length (JPEG Annex C). */
function huffmanCodes(bits: number[], values: number[]): Map<number, { code: number; length: number }> {
	const codes = new Map<number, { code: number; length: number }>();
	let code = 0;
	let k = 0;
	for (let length = 1; length <= 16; length++) {
		for (let i = 0; i < bits[length - 1]; i++) codes.set(values[k++], { code: code++, length });
		code <<= 1;
	}
	return codes;
}

class BitWriter {
	readonly bytes: number[] = [];

	private current = 0;

	private count = 0;

	write(value: number, length: number): void {
		for (let i = length - 1; i >= 0; i--) {
			this.current = (this.current << 1) | ((value >> i) & 1);
			if (++this.count === 8) this.flushByte();
		}
	}

	/** Pads the last byte with 1 bits, as the standard asks. */
	end(): void {
		while (this.count !== 0) this.write(1, 1);
	}

	private flushByte(): void {
		this.bytes.push(this.current);
		if (this.current === 0xff) this.bytes.push(0x00); // byte stuffing
		this.current = 0;
		this.count = 0;
	}
}

const u16 = (value: number) => [(value >> 8) & 0xff, value & 0xff];
const segment = (marker: number, payload: number[]) => [0xff, marker, ...u16(payload.length + 2), ...payload];

function category(value: number): number {
	let magnitude = value < 0 ? -value : value;
	let bits = 0;
	while (magnitude) {
		bits++;
		magnitude >>= 1;
	}
	return bits;
}

export function encodeJpeg(width: number, height: number, colour: BlockColour): Buffer {
	const dc = huffmanCodes(DC_BITS, DC_VALUES);
	const eob = huffmanCodes(AC_BITS, AC_VALUES).get(0)!;
	const writer = new BitWriter();
	const previous = [0, 0, 0];
	const blocksX = Math.ceil(width / 8);
	const blocksY = Math.ceil(height / 8);
	for (let by = 0; by < blocksY; by++) {
		for (let bx = 0; bx < blocksX; bx++) {
			const [r, g, b] = colour(bx, by);
			const ycc = [
				0.299 * r + 0.587 * g + 0.114 * b,
				128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
				128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
			];
			for (let c = 0; c < 3; c++) {
				// DC = 8 * (mean - 128); quantised by 8 -> mean - 128.
				// No Math.* per block: globals are slow to reach inside jest's VM context.
				const rounded = (ycc[c] - 128 + 128.5) | 0;
				const value = rounded - 128 < -128 ? -128 : rounded - 128 > 127 ? 127 : rounded - 128;
				const diff = value - previous[c];
				previous[c] = value;
				const size = category(diff);
				const code = dc.get(size)!;
				writer.write(code.code, code.length);
				if (size) writer.write(diff > 0 ? diff : diff + (1 << size) - 1, size);
				writer.write(eob.code, eob.length);
			}
		}
	}
	writer.end();

	const jfif = [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, ...u16(1), ...u16(1), 0, 0];
	const dqt = [0x00, ...new Array<number>(64).fill(QUANT)];
	const sof = [8, ...u16(height), ...u16(width), 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0];
	const dht = [0x00, ...DC_BITS, ...DC_VALUES, 0x10, ...AC_BITS, ...AC_VALUES];
	const sos = [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0];
	return Buffer.from([
		0xff,
		0xd8,
		...segment(0xe0, jfif),
		...segment(0xdb, dqt),
		...segment(0xc0, sof),
		...segment(0xc4, dht),
		...segment(0xda, sos),
		...writer.bytes,
		0xff,
		0xd9,
	]);
}
