/** Unit tests run on the TypeScript sources; workflow tests load the built package from dist/. */
const path = require('node:path');

const core = path.dirname(require.resolve('n8n-core'));
const workflow = path.dirname(require.resolve('n8n-workflow'));

/**
 * Modules n8n-core and n8n-workflow require as they load but use only inside functions most test files
 * never call (AI tools, SSH, signed binary URLs, proxies, XML errors, transliteration, the expression
 * engine's parsers and syntax trees), each at the file it really is, found here by Node: a stand-in
 * (test/harness/lazy/) loads it on its first use instead of afresh in every test file. n8n-core keeps
 * its own copy of @langchain/core. The expression engine loads when a test evaluates an expression.
 */
const LAZY_MODULES = {
	ssh2: require.resolve('ssh2'),
	undici: require.resolve('undici'),
	jsonwebtoken: require.resolve('jsonwebtoken'),
	transliteration: require.resolve('transliteration'),
	xml2js: require.resolve('xml2js'),
	'langchain-tools': require.resolve('@langchain/core/tools', { paths: [core] }),
	'ai-tool-types': path.join(core, 'execution-engine/node-execution-context/utils/ai-tool-types.js'),
	'expression-runtime': require.resolve('@n8n/expression-runtime'),
	recast: require.resolve('recast'),
	'recast-util': require.resolve('recast/lib/util'),
	'esprima-next': require.resolve('esprima-next'),
	'expression-evaluator-proxy': path.join(workflow, 'expression-evaluator-proxy.js'),
	'expression-sandboxing': path.join(workflow, 'expression-sandboxing.js'),
};

/**
 * TypeScript compiled by swc, file by file: to the build's language level (tsconfig.json's target) and to
 * CommonJS, as tsc builds dist/. It checks no types (`npm run typecheck` does). Its exports are getters,
 * so a test spies on an object's method, never on a module's export.
 * test/unit/harness/transform.test.ts runs the same code compiled both ways. No .swcrc is read.
 */
const TRANSFORM = [
	'@swc/jest',
	{
		swcrc: false,
		jsc: {
			parser: { syntax: 'typescript' },
			target: require('./tsconfig.json').compilerOptions.target,
		},
		module: { type: 'commonjs' },
		sourceMaps: 'inline',
	},
];

module.exports = {
	// node's environment plus a check that each test file closes the timers, sockets, servers and child
	// processes it opened (test/harness/open-handles-environment.ts).
	testEnvironment: '<rootDir>/test/harness/open-handles-environment.ts',
	// jest's runtime, reading installed files once per worker (test/harness/jest-runtime.js).
	runtime: '<rootDir>/test/harness/jest-runtime.js',
	roots: ['<rootDir>/test', '<rootDir>/nodes', '<rootDir>/credentials'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': TRANSFORM },
	globals: { LAZY_MODULES },
	moduleNameMapper: {
		'^(ssh2|undici|jsonwebtoken|transliteration|xml2js|recast|esprima-next)$': '<rootDir>/test/harness/lazy/$1.ts',
		'^@langchain/core/tools$': '<rootDir>/test/harness/lazy/langchain-tools.ts',
		'^\\.{1,2}/(utils/)?ai-tool-types$': '<rootDir>/test/harness/lazy/ai-tool-types.ts',
		'^@n8n/expression-runtime$': '<rootDir>/test/harness/lazy/expression-runtime.ts',
		'^recast/lib/util$': '<rootDir>/test/harness/lazy/recast-util.ts',
		'^\\./(expression-evaluator-proxy|expression-sandboxing)$': '<rootDir>/test/harness/lazy/$1.ts',
	},
	// A test that needs longer says why beside its own timeout.
	testTimeout: 10000,
	maxWorkers: 2,
};
