/**
 * The clocks of a callback wait and of the package's own news (nodes/shared/waitClocks.ts) depend
 * on each other: one row per relation, each failing when one clock drifts against another.
 */
import { AUTO_CALLBACK_MAX_TASKS } from '../../../nodes/GenerationGateway/actions/video/options';
import { MAX_WAIT_DEADLINE_MS } from '../../../nodes/shared/polling';
import {
	CLAIM_HOLD_MS,
	DEFAULT_CONFIRM_SCHEDULE,
	DELIVERY_TIMEOUT_MS,
	FIRST_READ_BOUND_MS,
	GATEWAY_ANSWER_WAIT_MS,
	OTHERS_READ_AGAIN_MS,
	PROBE_TIMEOUT_MS,
	RECHECK_POST_MS,
	RECHECK_READ_MS,
	RECOVERY_SEEN_MS,
	RETRY_AFTER_SECONDS,
	VERDICT_FRESH_MS,
	WAIT_MEMORY_LIFETIME_MS,
	WATCH_SCHEDULE,
} from '../../../nodes/shared/waitClocks';

const longestPause = Math.max(...WATCH_SCHEDULE.againAfterMs);
const { windowMs } = DEFAULT_CONFIRM_SCHEDULE;

describe('the clocks of a callback wait, against each other', () => {
	it.each<[string, boolean]>([
		["a callback's first read ends before its sender gives up", FIRST_READ_BOUND_MS < GATEWAY_ANSWER_WAIT_MS],
		['the confirmation window ends before the sender gives up', windowMs < GATEWAY_ANSWER_WAIT_MS],
		[
			"a 503's Retry-After outlasts the window: the gateway's reads catch up meanwhile",
			RETRY_AFTER_SECONDS * 1000 > windowMs,
		],
		[
			"the gateway's callback sent as the task ended is answered before the package's own post",
			WATCH_SCHEDULE.headStartMs > GATEWAY_ANSWER_WAIT_MS,
		],
		['a post waits for n8n longer than a gateway does', DELIVERY_TIMEOUT_MS > GATEWAY_ANSWER_WAIT_MS],
		[
			"a post waits longer than the node's own answer takes (its first read, then the window): a post past its timeout was held",
			DELIVERY_TIMEOUT_MS > FIRST_READ_BOUND_MS + windowMs,
		],
		[
			"the claim holds until every request under way at the hand-over has ended (the longest: the package's own post)",
			CLAIM_HOLD_MS >= DELIVERY_TIMEOUT_MS,
		],
		[
			"other tasks' callbacks read a task no more often than the watch does",
			OTHERS_READ_AGAIN_MS >= WATCH_SCHEDULE.readEveryMs,
		],
		[
			"the watch's repeated post finds the other tasks' read bound lifted",
			OTHERS_READ_AGAIN_MS <= longestPause,
		],
		[
			"a wait's memory outlives its watch: the longest deadline and a last post",
			WAIT_MEMORY_LIFETIME_MS > MAX_WAIT_DEADLINE_MS + DELIVERY_TIMEOUT_MS,
		],
		[
			"the probe begun as a wait starts has its verdict before that wait's first post",
			PROBE_TIMEOUT_MS < WATCH_SCHEDULE.readEveryMs + WATCH_SCHEDULE.headStartMs,
		],
		[
			'a verdict outlives the pause between two posts of a watch: no probe while watches post',
			VERDICT_FRESH_MS > longestPause,
		],
		[
			"a recheck of a wait Auto makes reads all its tasks within the recheck post's timeout",
			AUTO_CALLBACK_MAX_TASKS * RECHECK_READ_MS < RECHECK_POST_MS,
		],
		[
			"Recover Waits every minute, its example's schedule, is seen as set up between two passes and a slow one",
			RECOVERY_SEEN_MS >= 3 * 60_000,
		],
	])('%s', (_relation, holds) => {
		expect(holds).toBe(true);
	});
});
