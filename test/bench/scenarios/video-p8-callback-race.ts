/**
 * P8: Create and Wait in callback mode when callbacks race. Three tasks, the
 * callbacks of test/workflow/video-callback-race.ts delivered in each order
 * and concurrency to the harness's waiting-webhook route (in process, faithful
 * to n8n 2.x: no lock before webhook(), the resume elected by the execution's
 * status). Reported per order: reads of each task once final, downloads of
 * each video, the callbacks' HTTP statuses (then the late round's), and how
 * many callbacks resumed / lost n8n's resume.
 */
import { WaitingWebhookServer } from '../../harness/resume';
import { startSimulator } from '../../simulator';
import { RACE_SCENARIOS, runRace } from '../../workflow/video-callback-race';

export const title = 'video Create and Wait, callback mode: reads, downloads and answers when callbacks race';

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	const n8n = await WaitingWebhookServer.start(sim.credentials());
	const figures: Record<string, string> = {};
	try {
		for (const scenario of RACE_SCENARIOS) {
			const f = await runRace(sim, n8n, scenario);
			const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
			figures[scenario.name] = [
				`reads once final ${sum(f.readsAfterFinal)} [${f.readsAfterFinal.join(',')}]`,
				`reads of running tasks ${f.readsBeforeFinal}`,
				`downloads ${sum(f.downloads)} [${f.downloads.join(',')}]`,
				`statuses ${f.statuses.join(',')}`,
				`late ${f.lateStatuses.join(',')}`,
				`resumed ${f.resumed}, lost resume ${f.lostResume}`,
				`execution ${f.execution.status}`,
			].join('; ');
		}
		return figures;
	} finally {
		await n8n.stop();
		await sim.stop();
	}
}
