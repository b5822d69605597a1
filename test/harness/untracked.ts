/**
 * A mark for callbacks whose timer or immediate the open-handle check (open-handles-environment.ts)
 * does not track: the virtual-time driver's own turns, one for each step of its loop, which end when
 * the driver stops (the file's afterAll awaits it). `Symbol.for`: one symbol in the environment's
 * realm and in the test file's.
 */
export const UNTRACKED = Symbol.for('generation-gateway tests: untracked timer');

/** The callback, marked as untracked. */
export function untracked<T extends (...args: never[]) => unknown>(callback: T): T {
	return Object.assign(callback, { [UNTRACKED]: true });
}
