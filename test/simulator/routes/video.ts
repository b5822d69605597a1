/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { sendError, sendJson } from '../http';
import type { Route } from '../types';
import type { ServerResponse } from 'node:http';

/** Resolves when `res` can take more, or is gone; leaves no listener behind. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			res.off('drain', done).off('close', done);
			resolve();
		};
		res.on('drain', done).on('close', done);
	});
}
import { sampleMp4, videoTasks } from '../video/tasks';
import { validateVideoCreate } from '../video/validate';

/**
 * POST /v1/videos (202 with the creation result), GET /v1/videos/{id} (the
 * task record) and the media file a completed task points at. Rate limits on
 * polls come from the simulator's fault injection (`sim.inject` with status
 * 429 and a Retry-After on GET /v1/videos/...).
 */
export const videoRoutes: Route[] = [
	{
		method: 'POST',
		path: '/v1/videos',
		handle({ res, body, sim }) {
			validateVideoCreate(body);
			const tasks = videoTasks(sim);
			const task = tasks.create(body as Record<string, unknown>);
			// polling_url must start with https:// (the interface); the package polls
			// GET {base}/v1/videos/{id} itself, so the simulator only reports it.
			sendJson(res, 202, {
				id: task.id,
				status: tasks.status(task) === 'pending' ? 'pending' : 'queue',
				polling_url: `${sim.url.replace(/^http:/, 'https:')}/v1/videos/${task.id}`,
			});
		},
	},
	{
		method: 'GET',
		path: /^\/v1\/videos\/(?<id>[^/]+)$/,
		handle({ res, params, sim }) {
			const task = videoTasks(sim).tasks.get(decodeURIComponent(params.id));
			if (!task) return sendError(res, 404, `No video task with id ${params.id}`, { code: 'task_not_found' });
			sendJson(res, 200, videoTasks(sim).readRecord(task));
		},
	},
	{
		method: 'GET',
		path: /^\/files\/videos\/(?<id>[^/]+)\.mp4$/,
		async handle({ res, params, sim }) {
			const bytes = sampleMp4(params.id);
			const size = Math.max(bytes.length, videoTasks(sim).fileBytes ?? 0);
			res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': size });
			if (size === bytes.length) return void res.end(bytes);
			// Streamed in 1 MB pieces as the client reads them: the simulator never holds the file.
			res.write(bytes);
			const piece = Buffer.alloc(1024 * 1024);
			for (let left = size - bytes.length; left > 0 && !res.destroyed; left -= piece.length) {
				const slice = left >= piece.length ? piece : piece.subarray(0, left);
				if (!res.write(slice)) await drainedOrClosed(res);
			}
			res.end();
		},
	},
];
