/**
 * Stand-ins for modules that n8n-core and n8n-workflow require as they load but use only inside
 * functions most test files never call (jest.config.js lists them, with the file each really is).
 * Jest evaluates every module afresh in every test file; these are evaluated only in a file that uses
 * them. Nothing is replaced: every read, `in` or list of keys goes to the real module, required
 * through jest (so it is the file's own copy, on the file's clock) the first time one is made.
 */

declare const LAZY_MODULES: Record<string, string>;

/**
 * The stand-in for the module jest.config.js names `name`, whose exports are an object. `esModule`
 * is what the real module answers for `__esModule`, given without loading it: TypeScript's
 * `__importDefault` reads it as the module is required. `recorded` names functions that a module
 * requiring this one calls as it loads: each call is kept and made on the real module when it loads.
 */
export function lazy(name: string, esModule: boolean, recorded: string[] = []): object {
	const file = LAZY_MODULES[name];
	if (!file) throw new Error(`jest.config.js names no file for the module "${name}"`);
	let real: Record<PropertyKey, unknown> | undefined;
	const calls: Array<[string, unknown[]]> = [];
	const load = (): object => {
		if (!real) {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			real = require(file) as Record<PropertyKey, unknown>;
			for (const [fn, args] of calls.splice(0)) (real[fn] as (...a: unknown[]) => unknown)(...args);
		}
		return real;
	};
	const record = new Map(
		recorded.map((fn) => [fn, (...args: unknown[]) => void calls.push([fn, args])]),
	);
	return new Proxy(
		{},
		{
			get: (_target, key) => {
				if (!real && key === '__esModule') return esModule;
				if (!real && typeof key === 'string' && record.has(key)) return record.get(key);
				return Reflect.get(load(), key);
			},
			has: (_target, key) => Reflect.has(load(), key),
			ownKeys: () => Reflect.ownKeys(load()),
			getOwnPropertyDescriptor: (_target, key) => {
				const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
				// A proxy may not report a property non-configurable that its own (empty) target lacks.
				return descriptor && { ...descriptor, configurable: true };
			},
		},
	);
}
