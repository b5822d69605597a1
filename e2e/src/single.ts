/**
 * The single part, also run by the compat part on each older n8n: every example workflow, Create
 * and Wait by callback with 3 items finishing together, final callbacks that do not get through
 * (lostCallbacks.ts), a Wait node after a callback wait that a repeated callback must not resume
 * (laterWait.ts), and a callback wait whose Wait Timeout passes first.
 */
import { runCallbackTimeout, runCallbackWait } from './callbackWait';
import { runExample } from './examples';
import { runLaterWait } from './laterWait';
import { runLostCallbacks } from './lostCallbacks';
import { exampleFiles, type Context } from './workflows';

/** `title` opens each section of the output ("single instance", "n8n 2.0.3"). */
export async function runSingle(ctx: Context, title: string): Promise<void> {
	const { checks, label } = ctx;
	await checks.timed(`${label}: examples`, async () => {
		for (const file of exampleFiles()) {
			checks.begin(`${title}: examples/${file.split('/').pop()}`);
			try {
				await runExample(ctx, file);
			} catch (error) {
				checks.broke(`${label}: ${file}`, error);
			}
		}
	});
	checks.begin(`${title}: Create and Wait by callback, 3 items finishing together`);
	await checks.timed(`${label}: callback wait`, async () => {
		try {
			await runCallbackWait(ctx, 3);
		} catch (error) {
			checks.broke(`${label}: callback wait`, error);
		}
	});
	checks.begin(`${title}: final callbacks that do not get through (lost, refused 503)`);
	await checks.timed(`${label}: lost callbacks`, async () => {
		try {
			await runLostCallbacks(ctx);
		} catch (error) {
			checks.broke(`${label}: lost callbacks`, error);
		}
	});
	checks.begin(`${title}: a Wait node after Create and Wait, and the gateway's final callback repeated`);
	await checks.timed(`${label}: later wait`, async () => {
		try {
			await runLaterWait(ctx);
		} catch (error) {
			checks.broke(`${label}: later wait`, error);
		}
	});
	checks.begin(`${title}: Create and Wait by callback whose Wait Timeout passes first`);
	await checks.timed(`${label}: callback wait timeout`, async () => {
		try {
			await runCallbackTimeout(ctx);
		} catch (error) {
			checks.broke(`${label}: callback wait timeout`, error);
		}
	});
}
