import { invalid, sendJson } from '../http';
import type { Route } from '../types';

/**
 * GET /v1/user/balance. The interface has the request carry `{}` with
 * `Content-Type: none`; a client that sends no body (n8n never sends one on a
 * GET) is accepted too. Any other body is refused.
 */
export const accountRoutes: Route[] = [
	{
		method: 'GET',
		path: '/v1/user/balance',
		handle({ res, body, sim }) {
			if (body !== undefined && (typeof body !== 'object' || body === null || Object.keys(body).length > 0)) {
				invalid('body', 'The balance request takes no members: send an empty JSON object or no body');
			}
			sendJson(res, 200, { ...sim.balance });
		},
	},
];
