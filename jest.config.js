/** Unit tests run on the TypeScript sources; workflow tests load the built package from dist/. */
module.exports = {
	// node's environment plus a check that each test file closes the timers, sockets, servers and child
	// processes it opened (test/harness/open-handles-environment.ts).
	testEnvironment: '<rootDir>/test/harness/open-handles-environment.ts',
	roots: ['<rootDir>/test', '<rootDir>/nodes', '<rootDir>/credentials'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	// A test that needs longer says why beside its own timeout.
	testTimeout: 10000,
	maxWorkers: 2,
};
