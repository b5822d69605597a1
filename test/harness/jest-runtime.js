/**
 * jest's module runtime with costs taken out of every test file (jest.config.js `runtime`). jest
 * evaluates n8n-core, n8n-workflow and what they load afresh in each test file, which is right: no
 * file sees another's state. But it also read, looked up and compiled each of their thousands of
 * files again for every test file. An installed package's file (under node_modules) does not change
 * during a run, so this worker (or jest's own process, running in band) does that once per file:
 *
 * - its text, and its transformed code (jest checked the file's modification time for each);
 * - its compiled script, which runs in each test file's own context as before. A file that imports
 *   dynamically (`import(`) is compiled afresh, because its script holds the test file that made it.
 *
 * The package's own files, the tests and their fixtures are read and compiled each time, and so is
 * everything in watch mode, whose process outlives a run (an `npm install` may come between two). The `jest`
 * object each module receives is made when the module first uses it: almost none outside the tests do.
 * A file that mocks nothing does not look each module up an extra time to ask whether it is mocked.
 * It is plain JavaScript because jest requires it as it is, before any transform. It overrides methods
 * and reads fields of jest-runtime 29.7 that jest does not document (package.json pins jest): on an
 * upgrade, check each against the new jest-runtime, and run test/unit/harness/jest-runtime.test.ts.
 */
const path = require('node:path');

const Runtime = require('jest-runtime').default;

const INSTALLED = `${path.sep}node_modules${path.sep}`;

/** Whether a run with these settings keeps installed files from one test file to the next. */
const sharesInstalledFiles = (globalConfig) => !globalConfig?.watch && !globalConfig?.watchAll;

/** For every test file this process runs, by an installed file's path. */
const texts = new Map();
const transforms = new Map();
const scripts = new Map();

class WorkerCachedRuntime extends Runtime {
	constructor(...args) {
		super(...args);
		// jest passes the run's settings last.
		this.sharesInstalledFiles = sharesInstalledFiles(args.at(-1));
	}

	isShared(filename) {
		return this.sharesInstalledFiles && filename.includes(INSTALLED);
	}

	readFile(filename) {
		if (!this.isShared(filename)) return super.readFile(filename);
		let text = texts.get(filename);
		if (text === undefined) {
			text = super.readFile(filename);
			texts.set(filename, text);
		}
		return text;
	}

	transformFile(filename, options) {
		if (!this.isShared(filename) || options?.isInternalModule) {
			return super.transformFile(filename, options);
		}
		const known = transforms.get(filename);
		if (known === undefined) {
			const code = super.transformFile(filename, options);
			transforms.set(filename, {
				transformed: this._fileTransforms.get(filename),
				sourceMap: this._sourceMapRegistry.get(filename),
			});
			return code;
		}
		this._fileTransforms.set(filename, known.transformed);
		if (known.sourceMap !== undefined) this._sourceMapRegistry.set(filename, known.sourceMap);
		return known.transformed.code;
	}

	createScriptFromCode(code, filename) {
		if (!this.isShared(filename)) return super.createScriptFromCode(code, filename);
		let script = scripts.get(filename);
		if (script === undefined) {
			// null for a file that imports dynamically: compiled afresh each time.
			script = code.includes('import(') ? null : super.createScriptFromCode(code, filename);
			scripts.set(filename, script);
		}
		return script ?? super.createScriptFromCode(code, filename);
	}

	// Nothing mocked and no automock: no module is mocked, so none is looked up to ask (jest resolved
	// every require twice, once for this question).
	_shouldMockCjs(from, moduleName, explicitShouldMock) {
		if (explicitShouldMock.size === 0 && !this._shouldAutoMock) return false;
		return super._shouldMockCjs(from, moduleName, explicitShouldMock);
	}

	_createJestObjectFor(from) {
		let jestObject;
		const real = () => (jestObject ??= super._createJestObjectFor(from));
		return new Proxy(
			{},
			{
				get: (_target, key) => Reflect.get(real(), key),
				has: (_target, key) => Reflect.has(real(), key),
				ownKeys: () => Reflect.ownKeys(real()),
				getOwnPropertyDescriptor: (_target, key) => {
					const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
					return descriptor && { ...descriptor, configurable: true };
				},
			},
		);
	}
}

module.exports = WorkerCachedRuntime;
module.exports.sharesInstalledFiles = sharesInstalledFiles;
