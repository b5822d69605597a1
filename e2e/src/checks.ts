/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** Counts the suite's assertions and prints each one; a failed check does not stop the suite. */
export class Checks {
	passed = 0;

	readonly failures: string[] = [];

	private section = '';

	readonly timings: Array<[string, number]> = [];

	begin(section: string): void {
		this.section = section;
		process.stdout.write(`\n== ${section}\n`);
	}

	ok(name: string, condition: boolean, detail?: unknown): boolean {
		const line = `${name}${detail === undefined ? '' : `: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`;
		if (condition) {
			this.passed++;
			process.stdout.write(`   ok    ${line}\n`);
		} else {
			this.failures.push(`[${this.section}] ${line}`);
			process.stdout.write(`   FAIL  ${line}\n`);
		}
		return condition;
	}

	equal(name: string, actual: unknown, expected: unknown): boolean {
		const same = JSON.stringify(actual) === JSON.stringify(expected);
		return this.ok(name, same, same ? actual : { actual, expected });
	}

	/** Records an error that ended a part of the suite early. */
	broke(name: string, error: unknown): void {
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
}
