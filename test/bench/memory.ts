/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Shared by the memory benchmarks (image-memory: P4, binary-upload-memory):
 * peaks measured in a child process started with --expose-gc, so that the
 * simulator in the parent does not count.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A field of /proc/self/status (VmRSS, VmHWM), in bytes. */
const status = (field: string) =>
	Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

export interface Peaks {
	/** Peak resident memory above the baseline: the kernel's high-water mark (VmHWM). */
	peakRss: number;
	/** Peak JS heap + buffers above the baseline, sampled every 2 ms. */
	peakHeap: number;
}

/**
 * Runs `work` and returns its peaks above the baseline measured just before
 * (VmHWM is reset through /proc/self/clear_refs). With `live`, every sample
 * first forces a full collection, so the heap peak is what the code really
 * holds, not garbage V8 has not collected yet (V8 collects buffers lazily,
 * only once about 64 MB of them have piled up).
 */
export async function measurePeaks(work: () => Promise<void>, live = false): Promise<Peaks> {
	const gc = (globalThis as { gc?: () => void }).gc!;
	gc();
	gc();
	const used = () => {
		const m = process.memoryUsage();
		return m.heapUsed + m.external;
	};
	const baseRss = status('VmRSS');
	const baseHeap = used();
	writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
	let peakHeap = baseHeap;
	const sampler = setInterval(() => {
		if (live) gc();
		peakHeap = Math.max(peakHeap, used());
	}, 2);
	try {
		await work();
	} finally {
		clearInterval(sampler);
	}
	peakHeap = Math.max(peakHeap, used());
	return { peakRss: status('VmHWM') - baseRss, peakHeap: peakHeap - baseHeap };
}

/**
 * Runs `file` (a scenario whose main part calls `child`) in a child process
 * with --expose-gc and `args`; returns the JSON it printed on its RESULT line.
 */
export async function runMeasuringChild<T>(file: string, args: string[]): Promise<T> {
	const root = join(__dirname, '..', '..');
	const proc = spawn(
		process.execPath,
		['--expose-gc', '-r', 'ts-node/register/transpile-only', file, ...args],
		{
			cwd: root,
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	let output = '';
	for await (const chunk of proc.stdout) output += String(chunk);
	const line = /RESULT (.*)/.exec(output);
	if (!line) throw new Error(`child failed: ${output.slice(-500)}`);
	return JSON.parse(line[1]) as T;
}
