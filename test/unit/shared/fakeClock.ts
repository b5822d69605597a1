import type { Clock } from '../../../nodes/shared/time';

/** A clock whose sleeps advance simulated time at once; records every pause. */
export class FakeClock implements Clock {
	readonly sleeps: number[] = [];

	constructor(public time = 1_000_000) {}

	now(): number {
		return this.time;
	}

	async sleep(ms: number, signal?: AbortSignal): Promise<void> {
		this.sleeps.push(ms);
		if (signal?.aborted) return;
		this.time += ms;
		await Promise.resolve();
	}
}
