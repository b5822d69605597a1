/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CACHED_CONTENT_WIRE } from '../../../nodes/GenerationGateway/actions/cachedContent/wireNames';
import { MESSAGE_WIRE } from '../../../nodes/GenerationGateway/actions/message/wireNames';
import {
	RESPONSE_TOOL_TYPES,
	RESPONSE_WIRE,
} from '../../../nodes/GenerationGateway/actions/response/wireNames';

/** The manual lists every assumed name of the three text endpoints (the module and the manual agree). */
const assumed = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'assumed-field-names.md'), 'utf8');
const subsection = (title: string) => {
	const start = assumed.indexOf(`## ${title}\n`);
	const next = assumed.indexOf('\n## ', start + 1);
	return start === -1 ? '' : assumed.slice(start, next === -1 ? undefined : next);
};

describe('the manual lists the assumed names', () => {
	it.each([
		['Message', Object.values(MESSAGE_WIRE)],
		['Response', [...Object.values(RESPONSE_WIRE), ...RESPONSE_TOOL_TYPES]],
		['Cached Content', Object.values(CACHED_CONTENT_WIRE)],
	])('%s', (title, names) => {
		const text = subsection(title);
		expect(text.length).toBeGreaterThan(20);
		for (const name of names) expect({ name, listed: text.includes(name) }).toEqual({ name, listed: true });
	});
});
