import { randomUUID } from 'node:crypto';

import { validateCachedContentRequest } from '../cachedContent/validate';
import { sendJson } from '../http';
import type { Route } from '../types';

/**
 * POST /v1beta/cachedContents (x-native-api-key): strict validation, then the
 * Cached content resource. Created caches are kept in `sim.state` under
 * `cachedContents` (name -> resource) for tests to inspect. Without ttl or
 * expireTime the cache lives one hour (the interface gives no default; this
 * is the native protocol's).
 */
export const cachedContentRoutes: Route[] = [
	{
		method: 'POST',
		path: '/v1beta/cachedContents',
		handle({ res, body, sim }) {
			const request = validateCachedContentRequest(body);
			const now = new Date();
			const expire =
				typeof request.expireTime === 'string'
					? new Date(request.expireTime)
					: new Date(
							now.getTime() + 1000 * (typeof request.ttl === 'string' ? parseFloat(request.ttl) : 3600),
						);
			const text = JSON.stringify([
				request.contents,
				request.systemInstruction ?? null,
				request.tools ?? null,
			]);
			const resource: Record<string, unknown> = {
				name: `cachedContents/${randomUUID().replace(/-/g, '').slice(0, 16)}`,
				model: request.model,
				createTime: now.toISOString(),
				updateTime: now.toISOString(),
				expireTime: expire.toISOString(),
				usageMetadata: { totalTokenCount: Math.ceil(text.length / 4) },
			};
			if (request.displayName !== undefined) resource.displayName = request.displayName;
			const store =
				(sim.state.get('cachedContents') as Map<string, unknown> | undefined) ?? new Map<string, unknown>();
			store.set(String(resource.name), resource);
			sim.state.set('cachedContents', store);
			sendJson(res, 200, resource);
		},
	},
];
