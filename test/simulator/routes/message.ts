import { randomUUID } from 'node:crypto';

import { sendJson } from '../http';
import { generateMessage, messageEvents } from '../message/generate';
import { validateMessageRequest } from '../message/validate';
import type { Route } from '../types';

/**
 * POST /v1/messages (x-api-key): strict validation, then a Message resource,
 * or with `stream: true` the same resource as Anthropic Messages SSE events.
 */
export const messageRoutes: Route[] = [
	{
		method: 'POST',
		path: '/v1/messages',
		async handle(ctx) {
			const body = validateMessageRequest(ctx.body);
			const message = generateMessage(body, `msg_${randomUUID().replace(/-/g, '').slice(0, 20)}`);
			if (body.stream === true) return await ctx.sim.streamSse(ctx, messageEvents(message));
			sendJson(ctx.res, 200, message);
		},
	},
];
