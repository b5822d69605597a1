/** Bench P15 (burst.ts): the restart rows, n8n stopped and started again in the middle of a batch's wait. */
import type { Simulator } from '../../test/simulator';
import { videoTasks } from '../../test/simulator/video/tasks';
import { outputOf, type N8n } from '../src/n8n';
import { waitFor } from '../src/proc';
import { holdTaskEnds } from '../src/workflows';
import { listedStatus } from './measure';
import {
	CALLBACK_TIMEOUT_MS,
	DOWNLOAD,
	NODE,
	batchWorkflow,
	waitForCompletionWorkflow,
	type BurstRow,
} from './burstWorkflows';

export interface RestartFigures {
	row: string;
	/** How the batch waited (Auto: by its size). */
	ran: string;
	/** The execution's status once n8n was back. */
	statusAfterRestart: string;
	/** Tasks the gateway created, and how many of their ids the user could find after the restart, where. */
	created: number;
	found: number;
	where: string;
	/** Items that came out with their video in the end, and what it took. */
	videos: number;
	recovery: string;
}

/** The polling wait's log line: the ids of the tasks it waits for. */
const POLLING_LOG = /waits by polling for (\d+) video tasks; .*?task ids: ((?:video_\S+ ?)+)/;

/**
 * A restart of n8n in the middle of a batch's wait (Auto, so polling beyond AUTO_CALLBACK_MAX_TASKS
 * tasks, callback up to it): what the user is left with, and what brings every video back.
 */
export async function runRestartRow(
	n8n: N8n,
	sim: Simulator,
	credentials: Record<string, string>,
	row: BurstRow,
): Promise<RestartFigures> {
	const tasks = videoTasks(sim);
	tasks.callbackTimeoutMs = CALLBACK_TIMEOUT_MS;
	tasks.secondCallbacks = { kind: 'off' };
	// The tasks go on running through the restart; they end once n8n is back.
	const clock = holdTaskEnds(sim);
	const endsAt = clock.endsAt;
	const workflow = batchWorkflow(credentials, row, endsAt);
	const created = await n8n.createWorkflow(workflow);
	const logBefore = n8n.proc!.log().length;
	const executionId = await n8n.runManually(created.id, 'Start');
	const began = await waitFor(
		`P15 restart ${row.items}: the wait under way`,
		async () => {
			const match = POLLING_LOG.exec(n8n.proc!.log().slice(logBefore));
			if (match) return { ran: 'polling', ids: match[2].trim().split(' ') };
			const status = await listedStatus(n8n, created.id).catch(() => undefined);
			return status === 'waiting' ? { ran: 'callback', ids: [] as string[] } : undefined;
		},
		5 * 60_000,
		500,
	);
	// The tasks this row created (their prompts name its instant), as the gateway knows them.
	const createdIds = [...tasks.tasks.values()]
		.filter((task) => task.prompt.includes(`[at:${endsAt}]`))
		.map((task) => task.id);
	try {
		await n8n.stop();
		await n8n.start();
		await n8n.login();
	} finally {
		clock.release();
	}
	const after = await n8n.execution(executionId);
	let videos = 0;
	let recovery: string;
	let found: number;
	let where: string;
	if (began.ran === 'polling') {
		found = began.ids.filter((id) => createdIds.includes(id)).length;
		where = "n8n's log (one line naming every task id)";
		const rerun = waitForCompletionWorkflow(credentials, began.ids);
		const made = await n8n.createWorkflow(rerun);
		const rerunId = await n8n.runManually(made.id, 'Start');
		const done = await n8n.waitExecution(rerunId, 10 * 60_000);
		videos = outputOf(done, NODE).filter(
			(item) => item.json.status === 'completed' && item.binary?.data,
		).length;
		recovery = `Video → Wait for Completion with the ids from the log: ${done.status}`;
	} else {
		where = "the waiting execution (custom data), kept in n8n's database";
		const done = await n8n.waitExecution(executionId, 10 * 60_000);
		const out = outputOf(done, NODE);
		// The ids the resumed node read back from the waiting execution after the restart.
		found = out.filter((item) => createdIds.includes(String(item.json.id))).length;
		videos = out.filter(
			(item) => item.json.status === 'completed' && (!DOWNLOAD || item.binary?.data),
		).length;
		recovery = `none: the callbacks resumed the waiting execution after the restart (${done.status})`;
	}
	return {
		row: `restart ${row.items}`,
		ran: began.ran,
		statusAfterRestart: after.status,
		created: createdIds.length,
		found,
		where,
		videos,
		recovery,
	};
}
