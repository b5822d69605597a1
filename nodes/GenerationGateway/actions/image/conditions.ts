import type { DisplayForOptions } from '../../../shared/catalog';
import type { ImageModel } from './catalog';
import { imageCatalog } from './catalog';

/**
 * displayOptions of the image form, computed from the catalog: a field is
 * shown for the models a predicate selects (with their snapshots and aliases),
 * and with `{ unknown: true }` also for every ID the catalog does not know
 * (variant A). Plain conditions only: see Catalog.displayFor.
 */

export type Predicate = (model: ImageModel) => boolean;

export const forModels = (predicate: Predicate, options?: DisplayForOptions) =>
	imageCatalog.displayFor(predicate, options);
/** Variant A only: the IDs the catalog does not know. */
export const variantAOnly = () => imageCatalog.displayFor(() => false, { unknown: true });

export const isVariantC: Predicate = (m) => m.variant === 'C';
export const accepts =
	(parameter: ImageModel['parameters'][number]): Predicate =>
	(m) =>
		m.parameters.includes(parameter);

export const label = (value: string) => ({ name: value, value });
