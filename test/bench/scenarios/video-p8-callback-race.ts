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
 */
import { WaitingWebhookServer } from '../../harness/resume';
import { startSimulator } from '../../simulator';
import { FORGED_SCENARIO, RACE_SCENARIOS, runRace } from '../../workflow/video-callback-race';

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
		return figures;
	} finally {
		await n8n.stop();
		await sim.stop();
	}
}
