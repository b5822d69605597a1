import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Limiter } from './concurrency';
import { createLimiter } from './concurrency';
import type { Clock } from './time';
import { systemClock } from './time';
import type { PostAnswer } from './ownAddress';
import { noteReachability, postToOwnAddress } from './ownAddress';
import { printableUrl } from './urls';
import { isTerminalStatus } from './videoTask';
import type { WatchSchedule } from './waitClocks';
import {
	DELIVERY_TIMEOUT_MS,
	MAX_WAITS,
	WATCH_DELIVERIES_AT_ONCE,
	WATCH_READS_AT_ONCE,
	WATCH_SCHEDULE,
} from './waitClocks';

/**
 * The package's own news of finished tasks, for a callback that does not get through n8n (dropped or
 * refused while n8n is busy; a gateway may not call again): the process that sent the callback address
 * reads each task not known final, leaves the gateway's callback a head start, then posts the news itself,
 * paced and retried, until n8n's last word on it or the deadline. A resume under way here only pauses it.
 */

/** What n8n made of one delivery: taken (or nobody will ever take it), or to be sent again later. */
export type DeliveryVerdict = 'done' | 'again';

export interface Watch {
	/** The tasks whose final records make the news. */
	taskIds: readonly string[];
	/** Nothing is read or posted after this time (the wait's own deadline). */
	until: number;
	/** A final record this process already has (a callback confirmed it): no read needed. */
	known(taskId: string): IDataObject | undefined;
	/** Whether this process saw the news get through for good (the trigger's workflow started). */
	delivered?(): boolean;
	/** Whether a resume is under way in this process: the posts wait, since it may still fail. */
	paused?(): boolean;
	read(taskId: string): Promise<IDataObject>;
	/** One delivery of the final records, in `taskIds` order. */
	deliver(records: IDataObject[]): Promise<DeliveryVerdict>;
	/** Told of each final record the watch read itself. */
	onFinal?(record: IDataObject): void;
	/** Where the watch says that a read failed (the first time; each post is logged by postToN8n). */
	log?(level: 'info' | 'warn', message: string): void;
	/** Told once the watch has ended. */
	ended?(): void;
}

/** How a watch ended: the process saw the news arrive, the watch delivered it, or its deadline passed. */
export type WatchEnd = 'delivered' | 'posted' | 'deadline';

export interface WatchSlots {
	reads: Limiter;
	deliveries: Limiter;
}

const processSlots: WatchSlots = {
	reads: createLimiter(WATCH_READS_AT_ONCE),
	deliveries: createLimiter(WATCH_DELIVERIES_AT_ONCE),
};

/** Reads and delivers until n8n's last word on the news or the deadline; never throws. */
export async function watchTasks(
	watch: Watch,
	clock: Clock = systemClock,
	schedule: WatchSchedule = WATCH_SCHEDULE,
	slots: WatchSlots = processSlots,
): Promise<WatchEnd> {
	const finals = new Map<string, IDataObject>();
	let readFailed = false;
	const failedRead = (taskId: string) => (error: unknown) => {
		if (!readFailed)
			watch.log?.(
				'warn',
				`could not read video task ${taskId} (read again in ${schedule.readEveryMs / 1000} s): ${(error as Error).message}`,
			);
		readFailed = true;
		return undefined;
	};
	const pause = async (ms: number): Promise<boolean> => {
		if (clock.now() + ms > watch.until) return false;
		await clock.sleep(ms);
		return true;
	};
	while (finals.size < watch.taskIds.length) {
		if (!(await pause(schedule.readEveryMs))) return 'deadline';
		if (watch.delivered?.()) return 'delivered';
		for (const taskId of watch.taskIds) {
			if (finals.has(taskId)) continue;
			const known = watch.known(taskId);
			const record =
				known ?? (await slots.reads(async () => await watch.read(taskId)).catch(failedRead(taskId)));
			if (!record || !isTerminalStatus(record.status)) continue;
			finals.set(taskId, record);
			if (!known) watch.onFinal?.(record);
		}
	}
	if (!(await pause(schedule.headStartMs))) return 'deadline';
	const records = watch.taskIds.map((taskId) => finals.get(taskId)!);
	const { againAfterMs } = schedule;
	for (let attempt = 0; ; ) {
		if (watch.delivered?.()) return 'delivered';
		if (watch.paused?.()) {
			if (!(await pause(schedule.readEveryMs))) return 'deadline';
			continue;
		}
		const verdict = await slots.deliveries(async () => await watch.deliver(records)).catch(() => 'again');
		if (verdict === 'done') return 'posted';
		if (!(await pause(againAfterMs[Math.min(attempt++, againAfterMs.length - 1)]))) return 'deadline';
	}
}

export interface WatchCount {
	active: number;
	max: number;
	/** The bound was logged since the count last fell below it. */
	logged: boolean;
}

const processWatches: WatchCount = { active: 0, max: MAX_WAITS, logged: false };

/** The watches this process keeps now. */
export function watchCount(): number {
	return processWatches.active;
}

/**
 * Starts a watch in the background of the process: the caller goes on and the
 * watch ends by itself. False, and a line in n8n's log the first time, when
 * the process keeps `max` watches already: the news then comes from the
 * gateway's callbacks alone.
 */
export function startWatch(
	watch: Watch,
	clock: Clock = systemClock,
	count: WatchCount = processWatches,
): boolean {
	if (count.active >= count.max) {
		if (!count.logged)
			watch.log?.(
				'warn',
				`this n8n process watches ${count.max} video tasks' waits already, its most: further waits get the gateway's callbacks alone until some end`,
			);
		count.logged = true;
		return false;
	}
	count.active++;
	if (count.active < count.max) count.logged = false;
	void watchTasks(watch, clock).finally(() => {
		count.active--;
		watch.ended?.();
	});
	return true;
}

/** n8n's words while another request resumes the execution (its 409): that resume may still fail. */
const RESUMING_NOW = /is running already/i;

/** A post n8n held open past its timeout: n8n does so while the execution waits at a node followed by a Wait or Form node. */
const heldOpen = (answer: PostAnswer) => answer.status === 0 && answer.unreachable?.cause === 'timeout';

/**
 * n8n busy (refused, 429, 5xx) or resuming the execution through another
 * request now: again later. A post held past its timeout is not sent again
 * (each would load the execution once more); any other answer is n8n's last
 * word on this news.
 */
export function deliveryVerdict(answer: PostAnswer): DeliveryVerdict {
	const { status, body } = answer;
	if (heldOpen(answer)) return 'done';
	if (status === 0 || status === 429 || status >= 500) return 'again';
	const message = typeof body === 'string' ? body : (body as { message?: unknown } | undefined)?.message;
	return status === 409 && RESUMING_NOW.test(String(message ?? '')) ? 'again' : 'done';
}

/** Posts a task's news to a callback address, writes what n8n answered to n8n's log, and judges it. */
export async function postToN8n(
	ctx: IExecuteFunctions,
	url: string,
	record: IDataObject,
	{ judge = deliveryVerdict, now }: { judge?: (answer: PostAnswer) => DeliveryVerdict; now: number },
): Promise<DeliveryVerdict> {
	// Nothing but the gateway's own record.
	const answer = await postToOwnAddress(ctx, url, record, DELIVERY_TIMEOUT_MS);
	const verdict = judge(answer);
	noteReachability(ctx.logger, url, answer, now);
	const said = heldOpen(answer)
		? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s: n8n holds such a post open while the execution waits at a node followed by a Wait or Form node, or is too busy to answer; not posted again`
		: answer.status
			? `HTTP ${answer.status}`
			: `no answer: ${answer.unreachable?.said}`;
	ctx.logger.info(
		`Generation Gateway: video task ${String(record.id)} is ${String(record.status)} and its callback did not come through here: posted it to ${printableUrl(url)} (${said}${verdict === 'again' ? ', to be posted again' : ''})`,
	);
	return verdict;
}

/** The watch's own lines in n8n's log. */
export function watchLog(ctx: IExecuteFunctions): Watch['log'] {
	return (level, message) => ctx.logger[level](`Generation Gateway: ${message}`);
}
