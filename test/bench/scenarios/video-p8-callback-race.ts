/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P8: Create and Wait in callback mode when callbacks race. Three tasks, the
 * callbacks of test/workflow/video-callback-race.ts delivered in each order
 * and concurrency to the harness's waiting-webhook route (in process, faithful
 * to n8n 2.x: no lock before webhook(), the resume elected by the execution's
 * status), with reads in flight, lagging reads, several webhook processes,
 * tasks final before the wait and forged callbacks. Reported per row: reads
 * of each task that answered final, stale reads, reads while running,
 * downloads, the callbacks' HTTP statuses (then the late round's), resumes
 * and lost resumes (the execution still waiting after every final callback
 * and the gateway's retries). Target: lost resume 0 in every row.
 *
 * Then the read-lag rows (test/workflow/video-callback-lag.ts): real
 * executions whose tasks end together and whose callbacks the simulator
 * posts over https, the gateway's reads trailing them by 0 to 9 s, and the
 * gateway calling again after a 503 or not. Reported per row: resumes,
 * videos, reads per task, the answers to the final callbacks, second
 * callbacks, downloads, the longest answer. Targets: with a lag up to 3 s
 * and no second callback every batch resumes with every video; at most 4
 * reads per task at 1,000 items.
 */
import { WaitingWebhookServer } from '../../harness/resume';
import { startSimulator } from '../../simulator';
import { FORGED_SCENARIO, RACE_SCENARIOS, runRace } from '../../workflow/video-callback-race';
import type { LagRow } from '../../workflow/video-callback-lag';
import {
	FAST_SECOND,
	HONOURING_SECOND,
	NO_SECOND,
	describeLag,
	runLagRow,
} from '../../workflow/video-callback-lag';

const LAG_ROWS: LagRow[] = [
	{ name: '5 tasks, reads current, no second callback', tasks: 5, lagMs: 0, second: NO_SECOND },
	{ name: '5 tasks, reads trail by 2 s, no second callback', tasks: 5, lagMs: 2_000, second: NO_SECOND },
	{
		name: '5 tasks, reads trail by 2 s, calls again 0.5 s and 1 s ignoring Retry-After',
		tasks: 5,
		lagMs: 2_000,
		second: FAST_SECOND,
	},
	{ name: '1 task, reads current, no second callback', tasks: 1, lagMs: 0, second: NO_SECOND },
	{ name: '1 task, reads trail by 1 s, no second callback', tasks: 1, lagMs: 1_000, second: NO_SECOND },
	{ name: '1 task, reads trail by 3 s, no second callback', tasks: 1, lagMs: 3_000, second: NO_SECOND },
	{ name: '3 tasks, reads trail by 3 s, no second callback', tasks: 3, lagMs: 3_000, second: NO_SECOND },
	{
		name: '1 task, reads trail by 9 s (over the window), no second callback',
		tasks: 1,
		lagMs: 9_000,
		second: NO_SECOND,
	},
	{
		name: '1 task, reads trail by 9 s, calls again 0.5 s and 1 s ignoring Retry-After',
		tasks: 1,
		lagMs: 9_000,
		second: FAST_SECOND,
	},
	{
		name: '1 task, reads trail by 9 s, honours Retry-After (30 s)',
		tasks: 1,
		lagMs: 9_000,
		second: HONOURING_SECOND,
	},
	{ name: '300 tasks, reads trail by 3 s, no second callback', tasks: 300, lagMs: 3_000, second: NO_SECOND },
	{
		name: '1,000 tasks, reads trail by 3 s, no second callback',
		tasks: 1_000,
		lagMs: 3_000,
		second: NO_SECOND,
		endAfterMs: 20_000,
	},
	{
		name: '1,000 tasks, reads current, no second callback',
		tasks: 1_000,
		lagMs: 0,
		second: NO_SECOND,
		endAfterMs: 20_000,
	},
];

export const title =
	'video Create and Wait, callback mode: reads, downloads, answers and lost resumes when callbacks race';

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	const n8n = await WaitingWebhookServer.start(sim.credentials());
	const figures: Record<string, string> = {};
	try {
		let lost = 0;
		for (const scenario of [...RACE_SCENARIOS, FORGED_SCENARIO]) {
			const f = await runRace(sim, n8n, scenario);
			const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
			figures[scenario.name] = [
				`reads answering final ${sum(f.readsAfterFinal)} [${f.readsAfterFinal.join(',')}]`,
				`stale reads ${f.staleReads}`,
				`reads of running tasks ${f.readsBeforeFinal}`,
				`downloads ${sum(f.downloads)} [${f.downloads.join(',')}]`,
				`statuses ${f.statuses.join(',')}`,
				`late ${f.lateStatuses.join(',')}`,
				`resumed ${f.resumed}, items refused by n8n ${f.refusedResume}`,
				`lost resume ${f.lostResumes}`,
				`forged URL fetched ${f.forgedFetches}`,
				`execution ${f.execution.status}`,
			].join('; ');
			lost += f.lostResumes;
		}
		figures['verdict (lost resume 0 in every row)'] = lost === 0 ? 'met' : `NOT met: ${lost} lost`;
	} finally {
		await n8n.stop();
		await sim.stop();
	}
	// Each row on its own simulator and route (lag and second callbacks are the simulator's switches).
	const only = process.env.P8_LAG_ROWS;
	let lagMet = true;
	for (const row of LAG_ROWS.filter((r) => !only || r.name.includes(only))) {
		const f = await runLagRow(row);
		figures[`lag: ${row.name}`] = describeLag(f);
		const reads = Math.max(...f.readsPerTask);
		if (row.lagMs <= 3_000 && (f.resumed !== 1 || f.videos !== row.tasks)) lagMet = false;
		if (row.tasks >= 1_000 && reads > 4) lagMet = false;
	}
	figures[
		'verdict (lag up to 3 s resumes with every video without a second callback; <= 4 reads per task at 1,000)'
	] = lagMet ? 'met' : 'NOT met';
	return figures;
}
