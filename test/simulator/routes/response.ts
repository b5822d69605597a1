import { randomUUID } from 'node:crypto';

import { sendJson } from '../http';
import { generateResponse, responseEvents } from '../response/generate';
import { validateResponseRequest } from '../response/validate';
import type { Route } from '../types';

/**
 * POST /v1/responses (bearer): strict validation, then the Response object, or
 * with `stream: true` the OpenAI Responses event sequence ending in
 * response.completed / response.failed / response.incomplete.
 */
export const responseRoutes: Route[] = [
	{
		method: 'POST',
		path: '/v1/responses',
		async handle(ctx) {
			const body = validateResponseRequest(ctx.body);
			const response = generateResponse(body, `resp_${randomUUID().replace(/-/g, '')}`, Date.now());
			if (body.stream === true) return await ctx.sim.streamSse(ctx, responseEvents(response));
			sendJson(ctx.res, 200, response);
		},
	},
];
