import {
	customDataFullHint,
	pollingFallbackHint,
	refusedItemsHint,
	retryOnFailHint,
} from '../../../nodes/GenerationGateway/actions/hints';
import {
	MAX_CUSTOM_DATA_ENTRIES,
	encodeState,
	fittingItems,
	slotsFit,
	stateKeyPrefix,
} from '../../../nodes/GenerationGateway/actions/video/wait/callback/taskList';
import { shownResumeUrl } from '../../../nodes/GenerationGateway/actions/video/wait/plan';

/**
 * The execution hints the node adds where money is at stake: each is a
 * warning above the output, one sentence saying what happened and what to do.
 * The workflow tests (test/workflow/hints.test.ts) show when each appears.
 */

const HINTS = [
	['Retry On Fail on a create', retryOnFailHint()],
	[
		'a callback wait that polled (resume URL not https)',
		pollingFallbackHint('http://localhost:5678/webhook-waiting/7'),
	],
	['a task list too long for the custom data', customDataFullHint(120, 57)],
	['a custom data with no room at all', customDataFullHint(3, 0)],
	['one item of one refused', refusedItemsHint(1, 1)],
	['one item of three refused', refusedItemsHint(1, 3)],
	['two items of five refused', refusedItemsHint(2, 5)],
] as const;

describe('hints', () => {
	it.each(HINTS)('%s: a warning in the output pane, in one sentence', (_name, hint) => {
		expect(hint).toEqual({ message: expect.any(String), type: 'warning', location: 'outputPane' });
		// One sentence: a single full stop, at the end (dots inside addresses and numbers are not stops).
		expect(hint.message).toMatch(/^[A-Z0-9].*\.$/);
		expect(hint.message.slice(0, -1)).not.toMatch(/\.\s/);
	});

	it('name what happened and what to do', () => {
		expect(retryOnFailHint().message).toBe(
			"Retry On Fail is on for this node: after a failed request n8n runs the node again for every item, and each attempt creates and bills new work, so turn Retry On Fail off in the node's Settings and run only the failed items again instead.",
		);
		expect(pollingFallbackHint('http://localhost:5678/webhook-waiting/7').message).toBe(
			"Create and Wait polled the gateway instead of waiting for its callback, because n8n's resume URL is not https (http://localhost:5678/webhook-waiting/7): set N8N_WEBHOOK_URL (older n8n such as 2.0 and 1.123: WEBHOOK_URL) to n8n's public https address so that the execution waits for the callback without holding a worker.",
		);
		expect(customDataFullHint(120, 57).message).toBe(
			"The task list of 120 items did not fit in the execution's custom data, so Create and Wait polled the gateway instead of waiting for callbacks: send at most 57 items per run (for example with Loop Over Items) to wait by callback.",
		);
		expect(refusedItemsHint(2, 5).message).toBe(
			"2 of 5 items were refused before sending (nothing was sent or charged for them): each such item's error field names the value to fix, so fix it and run those items again.",
		);
		expect(refusedItemsHint(1, 3).message).toBe(
			"1 of 3 items was refused before sending (nothing was sent or charged for it): each such item's error field names the value to fix, so fix it and run that item again.",
		);
		expect(refusedItemsHint(1, 1).message).toMatch(/^1 of 1 item was refused before sending/);
	});
});

describe('shownResumeUrl: the resume URL without its signature', () => {
	it.each([
		['http://localhost:5678/webhook-waiting/7?signature=abc', 'http://localhost:5678/webhook-waiting/7?…'],
		['http://n8n.local/webhook-waiting/7', 'http://n8n.local/webhook-waiting/7'],
		['', 'none'],
		[undefined, 'none'],
	])('%p -> %p', (url, shown) => {
		expect(shownResumeUrl(url)).toBe(shown);
	});
});

describe('fittingItems: how many items a run may have to wait by callback', () => {
	const prefix = stateKeyPrefix('5d1f2c3a-0b1e-4a51-9c2d-7e8f9a0b1c2d');
	const state = (count: number) => ({
		startedAt: 1_700_000_000_000,
		reason: 'Wait Mode is Callback',
		download: false,
		slots: Array.from({ length: count }, (_, n) => `video_${String(n).padStart(4, '0')}_abcdef`),
	});

	it.each([1, 10, 100, 130, 400])('%i items: the most that fit, and one more does not', (count) => {
		const fitting = fittingItems(prefix, state(count), {});
		expect(fitting).toBeGreaterThan(0);
		expect(fitting).toBeLessThanOrEqual(count);
		expect(slotsFit(encodeState(prefix, state(fitting)), {})).toBe(true);
		if (fitting < count) expect(slotsFit(encodeState(prefix, state(fitting + 1)), {})).toBe(false);
	});

	it('counts the custom data the execution already has', () => {
		const alone = fittingItems(prefix, state(400), {});
		const others = Object.fromEntries(Array.from({ length: 4 }, (_, n) => [`other_${n}`, 'x']));
		const beside = fittingItems(prefix, state(400), others);
		expect(beside).toBeLessThan(alone);
		const full = Object.fromEntries(
			Array.from({ length: MAX_CUSTOM_DATA_ENTRIES }, (_, n) => [`other_${n}`, 'x']),
		);
		expect(fittingItems(prefix, state(3), full)).toBe(0);
	});
});
