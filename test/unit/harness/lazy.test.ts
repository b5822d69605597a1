/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The stand-ins of test/harness/lazy/: a module jest.config.js lists is evaluated only when something
 * is first read from it, and then every read, `in` and list of keys is the real module's; a call its
 * requirer makes as it loads is made on the real module then. n8n-workflow's expressions run through them.
 */
import path from 'node:path';

import { Expression, ExpressionError } from 'n8n-workflow';

import { lazy } from '../../harness/lazy/lazy';

declare const LAZY_MODULES: Record<string, string>;
const loads = () => (globalThis as { lazyProbeLoads?: number }).lazyProbeLoads ?? 0;

beforeAll(() => {
	LAZY_MODULES.probe = path.join(__dirname, 'fixtures', 'lazy-probe.js');
});
afterAll(() => {
	delete LAZY_MODULES.probe;
});

it('evaluates the module at the first read, once, and answers __esModule before it as given', () => {
	const before = loads();
	const probe = lazy('probe', false) as { answer: number; __esModule?: boolean };
	expect(probe.__esModule).toBe(false);
	expect(loads()).toBe(before);
	expect(probe.answer).toBe(42);
	expect(probe.answer).toBe(42);
	expect(loads()).toBe(before + 1);
});

it('answers every read, `in` and list of keys from the real module', () => {
	const probe = lazy('probe', false);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const real = require(LAZY_MODULES.probe) as object;
	expect('list' in probe).toBe(true);
	expect('missing' in probe).toBe(false);
	expect(Object.keys(probe)).toEqual(['answer', 'list', 'given', 'set']);
	expect({ ...probe }).toEqual(real);
	expect((probe as { list: number[] }).list).toBe((real as { list: number[] }).list);
});

it('keeps each call to a function it records until the module loads, then makes them in order', () => {
	const probe = lazy('probe', false, ['set']) as { set: (value: string) => void; given: string[] };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const real = require(LAZY_MODULES.probe) as { given: string[] };
	const before = real.given.length;
	probe.set('first');
	probe.set('second');
	expect(real.given.slice(before)).toEqual([]);
	expect(probe.given.slice(before)).toEqual(['first', 'second']);
	probe.set('third');
	expect(real.given.slice(before)).toEqual(['first', 'second', 'third']);
});

it('loads the module for any other name, even one every object has, so later calls go to it', () => {
	const probe = lazy('probe', false, ['set']) as { set: (value: string) => void };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const real = require(LAZY_MODULES.probe) as { given: string[] };
	void probe.toString;
	probe.set('after toString');
	expect(real.given).toContain('after toString');
});

it('n8n-workflow evaluates through the stand-ins, and an expression error still reaches its caller', () => {
	expect(Expression.resolveWithoutWorkflow('{{ 1 + 2 }}')).toBe(3);
	// n8n-workflow sets the handler that passes this error on as it loads, before its evaluator exists.
	const boom = () => {
		throw new ExpressionError('boom');
	};
	expect(() => Expression.resolveWithoutWorkflow('{{ boom() }}', { boom })).toThrow(ExpressionError);
});

it.each(Object.entries(LAZY_MODULES))(
	'the stand-in of %s is the module jest.config.js names, with its __esModule',
	(name, file) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const standIn = require(path.join(__dirname, '../../harness/lazy', `${name}.ts`)) as {
			__esModule?: boolean;
		};
		const given = standIn.__esModule;
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const real = require(file) as { __esModule?: boolean };
		expect(given).toBe(Boolean(real.__esModule));
		expect(Object.keys(standIn)).toEqual(Object.keys(real));
	},
);

it('refuses a name jest.config.js does not list, saying where to add it', () => {
	expect(() => lazy('nothing-here', false)).toThrow(
		'jest.config.js names no file for the module "nothing-here"',
	);
});
