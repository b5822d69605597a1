/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** The simulator's video callbacks: every status change in order; a delivery answered 5xx is tried again, a 2xx or 4xx ends it. */
import { startSimulator } from '../../simulator';
import { startHttpsReceiver } from '../../simulator/video/https';
import { videoTasks } from '../../simulator/video/tasks';

it('retries a callback answered 5xx up to 3 attempts, and stops at a 2xx or a 4xx', async () => {
	const sim = await startSimulator();
	const final = [503, 500, 503];
	const receiver = await startHttpsReceiver(async (request) => {
		const status = String((request.body as { status: string }).status);
		return { status: status === 'completed' ? final.shift()! : 409 };
	});
	try {
		const tasks = videoTasks(sim);
		tasks.callbackRetryDelayMs = 10;
		const task = tasks.create({ model: 'vidA-2.5', prompt: 'retry [after:150]', callback_url: receiver.url });
		const until = Date.now() + 5000;
		const done = () => tasks.deliveries.filter((d) => d.id === task.id && d.status === 'completed').length;
		while (done() < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
		const mine = tasks.deliveries.filter((d) => d.id === task.id);
		// Every status change, in order, even when the 20 ms timer saw two at once; a 4xx is not retried.
		expect(mine.map((d) => [d.status, d.httpStatus, d.attempt])).toEqual([
			['pending', 409, 1],
			['queue', 409, 1],
			['in_progress', 409, 1],
			['completed', 503, 1],
			['completed', 500, 2],
			['completed', 503, 3],
		]);
	} finally {
		videoTasks(sim).stopTimer();
		await receiver.stop();
		await sim.stop();
	}
});
