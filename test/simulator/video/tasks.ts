/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

import type { Simulator } from '../server';

/**
 * The video task state machine of the simulator. A task's status is a
 * function of the (injectable) clock: pending -> queue -> in_progress -> its
 * outcome, at the times in `timing`. The outcome is `completed` unless the
 * prompt carries a trigger: `[fail]`, `[expire]` or `[cancel]`; `[after:<ms>]`
 * overrides when the task ends, and `[at:<epoch ms>]` ends it at that instant
 * of the simulator's clock (a batch whose tasks all end together, however
 * long their creates took). Every status change is posted to the task's
 * https callback address (the body is the task record, as GET returns it),
 * at the first tick of the delivery timer (every 20 ms from the first
 * callback task's creation) at or after the change; the timer sleeps through
 * the ticks at which no status changes.
 * A delivery answered 5xx, or lost on the network, is tried again (the real
 * gateway was seen retrying callbacks; its schedule is not published): up to
 * `callbackAttempts` attempts, `callbackRetryDelayMs` apart, unless
 * `secondCallbacks` chooses another behaviour (none; fixed pauses that
 * ignore Retry-After; the answer's Retry-After honoured).
 *
 * Faults of the read side: `staleReads` (the next N reads of an ended task
 * answer `in_progress`) and `readLagMs` (every read trails the callbacks:
 * until that long after a task's final callback was sent, or after it ended
 * when none is sent, a read answers the status before the final one).
 */

/**
 * What the gateway does after a final callback answered 5xx (or lost):
 * - `default`: `callbackAttempts` attempts in all, `callbackRetryDelayMs` apart;
 * - `off`: never calls again;
 * - `fixed`: calls again after each pause of `pausesMs` (from the previous answer), ignoring Retry-After;
 * - `retry-after`: calls again after the answer's Retry-After (seconds), up to `attempts` in all.
 */
export type SecondCallbacks =
	| { kind: 'default' }
	| { kind: 'off' }
	| { kind: 'fixed'; pausesMs: number[] }
	| { kind: 'retry-after'; attempts: number };

export interface VideoTiming {
	queueAfterMs: number;
	runAfterMs: number;
	doneAfterMs: number;
}

export const DEFAULT_TIMING: VideoTiming = { queueAfterMs: 30, runAfterMs: 60, doneAfterMs: 300 };

export interface SimTask {
	id: string;
	model: string;
	prompt: string;
	createdAt: number;
	duration: number;
	outcome: 'completed' | 'failed' | 'expired' | 'cancelled';
	doneAfterMs: number;
	callbackUrl?: string;
	/** Status last posted to the callback address. */
	notified?: string;
	/** A chain of deliveries for this task is under way (they go one after another, in order). */
	delivering?: boolean;
	/** When its final status was first posted (the simulator's clock). */
	finalSentAt?: number;
}

/** How much of an answer's body a delivery keeps: enough for n8n's 500 with the first frame of its stack. */
export const ANSWER_CHARS = 400;

export interface CallbackDelivery {
	id: string;
	status: string;
	url: string;
	httpStatus?: number;
	error?: string;
	/** 1 for the first try of this status, 2 for its first retry... */
	attempt: number;
	/** The answer's Retry-After header, if any. */
	retryAfter?: string;
	/** The start of the answer's body (its first ANSWER_CHARS characters), to tell who answered a 5xx. */
	answer?: string;
	/** When it was sent (the simulator's clock). */
	sentAt?: number;
	/** How long its answer took (or until it failed), in ms of the wall clock. */
	tookMs?: number;
}

const OUTCOME_TRIGGERS: Array<[string, SimTask['outcome']]> = [
	['[fail]', 'failed'],
	['[expire]', 'expired'],
	['[cancel]', 'cancelled'],
];

export class VideoTasks {
	/**
	 * The task clock. Date.now is the workflow tests' virtual clock under useVirtualTime
	 * (test/harness/virtual-time.ts: the node's clock too), the wall clock in the bench and e2e.
	 * Replacing it re-arms the delivery timer: a clock that jumps moves the next status change.
	 */
	get now(): () => number {
		return this.clock;
	}

	set now(clock: () => number) {
		this.clock = clock;
		this.schedule();
	}

	private clock: () => number = () => Date.now();

	/**
	 * Stops the task clock where it is now: no task moves on, however long the test's own steps take,
	 * until `advance(ms)` sets it to `ms` after the stop. `release()` lets it run with Date.now again,
	 * never backwards: a task that ended stays ended (a clock going back would send its earlier
	 * statuses again, every one a callback into a finished execution).
	 */
	stopClock(): { advance(ms: number): void; release(): void } {
		const start = this.now();
		let clock = start;
		this.now = () => clock;
		return {
			advance: (ms) => {
				clock = start + ms;
				this.schedule();
			},
			release: () => {
				this.now = () => Math.max(Date.now(), clock);
			},
		};
	}

	timing: VideoTiming = { ...DEFAULT_TIMING };

	/** Whether status changes are posted to callback addresses (off = the P2 bench's pure polling). */
	get callbacksEnabled(): boolean {
		return this.enabled;
	}

	set callbacksEnabled(enabled: boolean) {
		this.enabled = enabled;
		this.schedule();
	}

	private enabled = true;

	callbackAttempts = 3;

	callbackRetryDelayMs = 200;

	/** How long a delivery waits for its answer before it counts as failed (the connection is closed). */
	callbackTimeoutMs = 15_000;

	/**
	 * Whether https deliveries reuse their connections, as a gateway with a connection pool does
	 * (off: one connection, and one TLS handshake, per delivery). On where a test sends thousands of
	 * callbacks into the in-process stand-in; the e2e suite and the bench keep one per delivery.
	 */
	keepConnections = false;

	private pool: HttpsAgent | undefined;

	/** What happens after a delivery answered 5xx or lost (see SecondCallbacks). */
	secondCallbacks: SecondCallbacks = { kind: 'default' };

	/**
	 * How long reads trail the callbacks, in ms: until then after a task's
	 * final callback was sent (or after it ended, when no callback is sent), a
	 * read answers the status the task had before (`in_progress`). 0: reads
	 * are current.
	 */
	readLagMs = 0;

	/**
	 * Size of every video file served, in bytes (the sample MP4 padded with
	 * zeros, streamed): large files for the download benchmark. Undefined:
	 * the tiny sample itself.
	 */
	fileBytes: number | undefined;

	readonly tasks = new Map<string, SimTask>();

	readonly deliveries: CallbackDelivery[] = [];

	/**
	 * Reads of a task that still answer `in_progress` after it ended, by task id:
	 * a gateway whose reads lag behind its callbacks, or a read that began just
	 * before the task ended. Each GET of the ended task uses one up.
	 */
	readonly staleReads = new Map<string, number>();

	private timer: NodeJS.Timeout | undefined;

	/** When the delivery timer started (its ticks are TICK_MS apart from here), and its last tick. */
	private ticks: { from: number; last: number } | undefined;

	private counter = 0;

	constructor(private readonly sim: Simulator) {}

	create(body: Record<string, unknown>): SimTask {
		const prompt = String(body.prompt);
		const after = /\[after:(\d+)\]/.exec(prompt);
		const at = /\[at:(\d+)\]/.exec(prompt);
		const createdAt = this.now();
		const task: SimTask = {
			id: `video_${(++this.counter).toString().padStart(4, '0')}_${Math.random().toString(36).slice(2, 8)}`,
			model: String(body.model),
			prompt,
			createdAt,
			duration: typeof body.duration === 'number' && body.duration > 0 ? body.duration : 5,
			outcome: OUTCOME_TRIGGERS.find(([mark]) => prompt.includes(mark))?.[1] ?? 'completed',
			doneAfterMs: at
				? Math.max(0, Number(at[1]) - createdAt)
				: after
					? Number(after[1])
					: this.timing.doneAfterMs,
			callbackUrl: typeof body.callback_url === 'string' ? body.callback_url : undefined,
		};
		this.tasks.set(task.id, task);
		if (task.callbackUrl) this.startTimer();
		return task;
	}

	/** Ends the task now (with its outcome): its next read answers final, its final callback goes at the next tick. */
	endNow(task: SimTask): void {
		task.doneAfterMs = Math.max(0, this.now() - task.createdAt);
		this.schedule();
	}

	/** When the task is queued, runs and ends, in ms after its creation (none later than its end). */
	private changesAt(task: SimTask): { queueAt: number; runAt: number; doneAt: number } {
		return {
			queueAt: Math.min(this.timing.queueAfterMs, task.doneAfterMs),
			runAt: Math.min(this.timing.runAfterMs, task.doneAfterMs),
			doneAt: task.doneAfterMs,
		};
	}

	status(task: SimTask): string {
		const age = this.now() - task.createdAt;
		const { queueAt, runAt, doneAt } = this.changesAt(task);
		if (age >= doneAt) return task.outcome;
		if (age >= runAt) return 'in_progress';
		if (age >= queueAt) return 'queue';
		return 'pending';
	}

	/** The statuses the task passes through, in order (a phase of zero length is skipped). */
	phases(task: SimTask): string[] {
		const { queueAt, runAt, doneAt } = this.changesAt(task);
		const phases: string[] = [];
		if (queueAt > 0) phases.push('pending');
		if (runAt > queueAt) phases.push('queue');
		if (doneAt > runAt) phases.push('in_progress');
		return [...phases, task.outcome];
	}

	/** The Video task record of the interface (now, or as it was in `status`); `data` only once completed. */
	record(task: SimTask, status = this.status(task)): Record<string, unknown> {
		const record: Record<string, unknown> = {
			created: Math.floor(task.createdAt / 1000),
			id: task.id,
			model: task.model,
			prompt: task.prompt,
			status,
			usage: { video_seconds: status === 'completed' ? task.duration : 0 },
		};
		if (status === 'completed') {
			record.data = {
				url: `${this.sim.url}/files/videos/${task.id}.mp4`,
				format: 'mp4',
				duration: task.duration,
			};
		}
		return record;
	}

	/** Every GET of a task and the status it answered, in order. */
	readonly reads: Array<{ id: string; status: string; stale: boolean }> = [];

	/** The record a GET answers now: the task's own, unless a stale read is due (`staleReads`). */
	readRecord(task: SimTask): Record<string, unknown> {
		const stale = this.staleReads.get(task.id) ?? 0;
		const status = this.status(task);
		if (stale > 0 && isTerminal(status)) {
			this.staleReads.set(task.id, stale - 1);
			this.reads.push({ id: task.id, status: 'in_progress', stale: true });
			return this.record(task, 'in_progress');
		}
		if (this.readLagMs > 0 && isTerminal(status) && this.now() < this.finalReadableAt(task)) {
			const phases = this.phases(task);
			const before = phases.length > 1 ? phases[phases.length - 2] : 'in_progress';
			this.reads.push({ id: task.id, status: before, stale: true });
			return this.record(task, before);
		}
		this.reads.push({ id: task.id, status, stale: false });
		return this.record(task, status);
	}

	/** When reads start to show the task's final status (`readLagMs`). */
	finalReadableAt(task: SimTask): number {
		return Math.max(task.createdAt + task.doneAfterMs, task.finalSentAt ?? 0) + this.readLagMs;
	}

	/** The pause before attempt `attempt + 1` of a delivery, or undefined when the gateway does not call again. */
	private nextAttemptIn(attempt: number, delivery: Omit<CallbackDelivery, 'attempt'>): number | undefined {
		const policy = this.secondCallbacks;
		switch (policy.kind) {
			case 'off':
				return undefined;
			case 'fixed':
				return policy.pausesMs[attempt - 1];
			case 'retry-after': {
				if (attempt >= policy.attempts) return undefined;
				const seconds = Number(delivery.retryAfter);
				return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : this.callbackRetryDelayMs;
			}
			default:
				return attempt < this.callbackAttempts ? this.callbackRetryDelayMs : undefined;
		}
	}

	/**
	 * Posts status changes to callback addresses, every change in order even
	 * when the timer saw two at once ("calls it after the task status
	 * changes"): a tick of the delivery timer.
	 */
	async deliverCallbacks(): Promise<void> {
		if (!this.callbacksEnabled) return;
		const due = [...this.tasks.values()].filter(
			(t) => t.callbackUrl && !t.delivering && t.notified !== this.status(t),
		);
		const deliveries = Promise.all(due.map(async (task) => await this.catchUp(task)));
		this.schedule();
		await deliveries;
	}

	/** In how many ms of the task clock the task's status changes next (Infinity once it ended). */
	private nextChangeIn(task: SimTask, now: number): number {
		const age = now - task.createdAt;
		const changes = Object.values(this.changesAt(task)).filter((at) => at > age);
		return changes.length ? Math.min(...changes) - age : Infinity;
	}

	/**
	 * Arms the delivery timer for its first tick at which a status is due: now when one is (the next
	 * tick), else when the soonest change comes, on the task clock (whatever moves that clock or a
	 * task's end arms it again: `now`, a stopped clock's `advance`, `endNow`). No timer while only
	 * deliveries are under way (each arms it as it ends) or callbacks are off; the ticks start afresh
	 * once no task with a callback address is open or delivering.
	 */
	private schedule(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		if (!this.ticks || !this.enabled) return;
		const now = this.now();
		let soonest = Infinity;
		let open = false;
		for (const task of this.tasks.values()) {
			if (!task.callbackUrl || (!task.delivering && isTerminal(task.notified))) continue;
			open = true;
			if (task.delivering) continue;
			soonest = Math.min(soonest, task.notified === this.status(task) ? this.nextChangeIn(task, now) : 0);
		}
		if (!open) {
			this.ticks = undefined;
			return;
		}
		if (soonest === Infinity) return;
		const ticks = this.ticks;
		const due = Date.now() + soonest;
		const at = Math.max(ticks.last + TICK_MS, ticks.from + Math.ceil((due - ticks.from) / TICK_MS) * TICK_MS);
		this.timer = setTimeout(() => {
			this.timer = undefined;
			ticks.last = at;
			void this.deliverCallbacks();
		}, at - Date.now());
		this.timer.unref();
	}

	/** Delivers the task's statuses after the last one posted, up to its current one. */
	private async catchUp(task: SimTask): Promise<void> {
		task.delivering = true;
		try {
			for (
				let current = this.status(task);
				task.notified !== current && this.callbacksEnabled;
				current = this.status(task)
			) {
				const phases = this.phases(task);
				const upTo = phases.indexOf(current);
				const from = task.notified === undefined ? 0 : phases.indexOf(task.notified) + 1;
				const next = from > 0 || task.notified === undefined ? phases[Math.min(from, upTo)] : current;
				task.notified = next;
				const record = this.record(task, next);
				if (isTerminal(next)) task.finalSentAt ??= this.now();
				await Promise.all(this.callbackUrls(task).map(async (url) => await this.deliver(url, record)));
			}
		} finally {
			task.delivering = false;
			this.schedule();
		}
	}

	/** One status change posted to one address, and again while the policy says so. */
	private async deliver(url: string, record: Record<string, unknown>): Promise<void> {
		for (let attempt = 1; this.callbacksEnabled; attempt++) {
			const sentAt = this.now();
			const delivery = {
				...(await post(url, record, this.callbackTimeoutMs, this.agent())),
				attempt,
				sentAt,
			};
			this.deliveries.push(delivery);
			if (delivery.httpStatus !== undefined && delivery.httpStatus < 500) return;
			const pause = this.nextAttemptIn(attempt, delivery);
			if (pause === undefined) return;
			await this.pause(pause);
		}
	}

	/**
	 * Where a task's callbacks go: its callback address, unless `routeCallback` sends them elsewhere
	 * (a load balancer in front of several n8n webhook processes, in the e2e suite's queue mode), or
	 * to several addresses at once (a gateway that sends each callback twice, a copy to each).
	 */
	routeCallback: ((url: string, task: SimTask) => string | string[]) | undefined;

	private callbackUrls(task: SimTask): string[] {
		return [this.routeCallback ? this.routeCallback(task.callbackUrl!, task) : task.callbackUrl!].flat();
	}

	private agent(): HttpsAgent | false {
		if (!this.keepConnections) return false;
		this.pool ??= new HttpsAgent({ keepAlive: true, rejectUnauthorized: false });
		return this.pool;
	}

	/**
	 * Closes the kept connections no delivery is using, as a pool's idle timeout would: a test that sent
	 * hundreds of callbacks at once leaves none of their connections open to the tests after it.
	 */
	closeIdleConnections(): void {
		for (const sockets of Object.values(this.pool?.freeSockets ?? {}))
			for (const socket of sockets ?? []) socket.destroy();
	}

	/** Stops delivering callbacks (the simulator is stopping): no timer, request or connection is left. */
	stop(): void {
		this.callbacksEnabled = false;
		this.pool?.destroy();
		this.pool = undefined;
		this.stopTimer();
		for (const wake of this.pauses) wake();
		this.pauses.clear();
	}

	/** Pauses between attempts, ended at once by `stop()` (a 30 s Retry-After must not hold a test). */
	private readonly pauses = new Set<() => void>();

	private async pause(ms: number): Promise<void> {
		await new Promise<void>((resolve) => {
			const wake = () => {
				clearTimeout(timer);
				this.pauses.delete(wake);
				resolve();
			};
			const timer = setTimeout(wake, ms);
			timer.unref();
			this.pauses.add(wake);
		});
	}

	private stopTimer(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		this.ticks = undefined;
	}

	private startTimer(): void {
		if (!this.ticks) {
			const from = Date.now();
			this.ticks = { from, last: from };
		}
		this.schedule();
	}
}

/** The delivery timer's period: a status change is posted at its first tick at or after the change. */
const TICK_MS = 20;

const isTerminal = (status: string | undefined) =>
	status === 'completed' || status === 'failed' || status === 'expired' || status === 'cancelled';

/** One delivery; the self-signed certificate of local receivers is accepted (tests only). */
async function post(
	url: string,
	record: Record<string, unknown>,
	timeoutMs: number,
	agent: HttpsAgent | false,
): Promise<Omit<CallbackDelivery, 'attempt'>> {
	const body = JSON.stringify(record);
	const started = Date.now();
	const base = { id: String(record.id), status: String(record.status), url };
	return await new Promise((resolve) => {
		const target = new URL(url);
		const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
		const req = send(
			target,
			{
				method: 'POST',
				headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
				rejectUnauthorized: false,
				timeout: timeoutMs,
				// One connection per delivery unless kept in the pool, which stop() closes.
				agent: target.protocol === 'https:' ? agent : false,
			},
			(res) => {
				const retryAfter = res.headers['retry-after'];
				let answer = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => {
					if (answer.length < ANSWER_CHARS) answer = (answer + chunk).slice(0, ANSWER_CHARS);
				});
				res.on('end', () =>
					resolve({
						...base,
						httpStatus: res.statusCode,
						tookMs: Date.now() - started,
						...(retryAfter ? { retryAfter } : {}),
						...(answer ? { answer } : {}),
					}),
				);
			},
		);
		// `timeout` only emits an event: close the socket, or a silent receiver holds it open for good.
		req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
		req.on('error', (error) => resolve({ ...base, error: error.message, tookMs: Date.now() - started }));
		req.end(body);
	});
}

/** The video state of a simulator (created on first use). */
export function videoTasks(sim: Simulator): VideoTasks {
	let tasks = sim.state.get('video') as VideoTasks | undefined;
	if (!tasks) {
		tasks = new VideoTasks(sim);
		sim.state.set('video', tasks);
	}
	return tasks;
}

/** A tiny but well-formed MP4 header (ftyp + free box) standing in for the video bytes. */
export function sampleMp4(id: string): Buffer {
	const ftyp = Buffer.concat([
		Buffer.from([0, 0, 0, 0x18]),
		Buffer.from('ftypisom'),
		Buffer.from([0, 0, 2, 0]),
		Buffer.from('isommp41'),
	]);
	const payload = Buffer.from(`simulated video ${id}`);
	const free = Buffer.concat([Buffer.alloc(4), Buffer.from('free'), payload]);
	free.writeUInt32BE(free.length, 0);
	return Buffer.concat([ftyp, free]);
}
