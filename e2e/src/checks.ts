/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** Counts the suite's assertions and prints each one; a failed check does not stop the suite. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * e2e/checks/<part>.txt: the names of the checks a complete run of the part reports, one a line.
 * `E2E_RECORD_CHECKS=1 ./scripts/run e2e <part>` writes it (after adding, renaming or removing a check).
 */
export const checkListsDir = join(__dirname, '..', 'checks');

/** The part running now: the names it reported, whether it broke. */
interface PartRun {
	name: string;
	reported: string[];
	broke: boolean;
	/** Checks of the run that failed: a failed check can skip the checks that follow from it. */
	failed: number;
	listed: boolean;
}

export class Checks {
	passed = 0;

	readonly failures: string[] = [];

	/** Checks of a part's list that its run did not reach (also counted in failures). */
	notReached = 0;

	private section = '';

	private current: PartRun | undefined;

	readonly timings: Array<[string, number]> = [];

	begin(section: string): void {
		this.section = section;
		process.stdout.write(`\n== ${section}\n`);
	}

	ok(name: string, condition: boolean, detail?: unknown): boolean {
		const line = `${name}${detail === undefined ? '' : `: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`;
		this.current?.reported.push(name);
		if (condition) {
			this.passed++;
			process.stdout.write(`   ok    ${line}\n`);
		} else {
			if (this.current) this.current.failed++;
			this.failures.push(`[${this.section}] ${line}`);
			process.stdout.write(`   FAIL  ${line}\n`);
		}
		return condition;
	}

	/** `context`: values of this run (execution ids, ports) shown beside the result, kept out of the name. */
	equal(name: string, actual: unknown, expected: unknown, context?: Record<string, unknown>): boolean {
		const same = JSON.stringify(actual) === JSON.stringify(expected);
		const result = same ? { actual } : { actual, expected };
		return this.ok(name, same, context ? { ...context, ...result } : same ? actual : result);
	}

	/** Records an error that ended a part of the suite early. */
	broke(name: string, error: unknown): void {
		if (this.current) this.current.broke = true;
		this.failures.push(`[${this.section}] ${name}: ${(error as Error)?.stack ?? String(error)}`);
		process.stdout.write(`   FAIL  ${name}: ${(error as Error)?.stack ?? String(error)}\n`);
	}

	note(line: string): void {
		process.stdout.write(`         ${line}\n`);
	}

	async timed<T>(label: string, body: () => Promise<T>): Promise<T> {
		const started = Date.now();
		try {
			return await body();
		} finally {
			this.timings.push([label, Date.now() - started]);
		}
	}

	/**
	 * Runs one part of the suite (main.ts: `single`, `queue`, ...; `setup`, `single-start`). An error
	 * it throws is reported (broke). Then each check its list (e2e/checks/<part>.txt) names that the
	 * run did not report is reported failed, "not reached": a run that stops early counts the same
	 * checks as a complete one, by name. With E2E_RECORD_CHECKS=1 the run writes the list instead,
	 * when nothing in the part broke. `listed: false`: a run that leaves some of the part out on
	 * purpose (E2E_AGENTS_N8N), neither compared with the list nor written to it.
	 */
	async part<T>(name: string, body: () => Promise<T>, listed = true): Promise<T | undefined> {
		const run: PartRun = { name, reported: [], broke: false, failed: 0, listed };
		this.current = run;
		try {
			return await body();
		} catch (error) {
			this.broke(`${name}: the part stopped early`, error);
			return undefined;
		} finally {
			this.current = undefined;
			this.endPart(run);
		}
	}

	private endPart(run: PartRun): void {
		const file = join(checkListsDir, `${run.name}.txt`);
		if (!run.listed) {
			this.note(`${run.name}: only some of the part ran, so it is not compared with ${file}`);
			return;
		}
		if (process.env.E2E_RECORD_CHECKS) {
			if (run.broke || run.failed) {
				this.note(`${run.name}: something broke or failed, so ${file} is left as it is`);
			} else {
				mkdirSync(checkListsDir, { recursive: true });
				writeFileSync(file, run.reported.map((name) => `${name}\n`).join(''));
				this.note(`${run.name}: its ${run.reported.length} check names written to ${file}`);
			}
			return;
		}
		if (!existsSync(file)) {
			this.note(`${run.name}: no list of its checks (${file}); unreached checks cannot be named`);
			return;
		}
		const expected = readFileSync(file, 'utf8').split('\n').filter(Boolean);
		// Each name as often as the list has it: a name may be checked more than once (per release, per item).
		const left = new Map<string, number>();
		for (const name of run.reported) left.set(name, (left.get(name) ?? 0) + 1);
		const missing: string[] = [];
		let unlisted = run.reported.length;
		for (const name of expected) {
			const count = left.get(name) ?? 0;
			if (count > 0) {
				left.set(name, count - 1);
				unlisted--;
			} else {
				missing.push(name);
			}
		}
		if (missing.length) {
			this.begin(`${run.name}: checks not reached`);
			for (const name of missing) {
				this.notReached++;
				this.failures.push(`[${run.name}: not reached] ${name}`);
				process.stdout.write(`   FAIL  ${name}: not reached\n`);
			}
		}
		if (unlisted > 0) {
			this.note(
				`${run.name}: ${unlisted} checks not in ${file}; a run with E2E_RECORD_CHECKS=1 writes it anew`,
			);
		}
	}
}
