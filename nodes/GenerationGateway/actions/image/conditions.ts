import type { DisplayForOptions } from '../../../shared/catalog';
import type { ImageModel } from './catalog';
import { imageCatalog } from './catalog';

/** displayOptions of the image form, computed from the catalog (see Catalog.displayFor). */

type Predicate = (model: ImageModel) => boolean;

export const forModels = (predicate: Predicate, options?: DisplayForOptions) =>
	imageCatalog.displayFor(predicate, options);
/** Variant A only: the IDs the catalog does not know. */
export const variantAOnly = () => imageCatalog.displayFor(() => false, { unknown: true });

export const isVariantC: Predicate = (m) => m.variant === 'C';
export const accepts =
	(parameter: ImageModel['parameters'][number]): Predicate =>
	(m) =>
		m.parameters.includes(parameter);
