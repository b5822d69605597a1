import type { DisplayCondition } from 'n8n-workflow';

import type { ImageModel } from './catalog';
import { imageCatalog } from './catalog';

/**
 * displayOptions of the image form, computed from the catalog: a field is
 * shown for the models a predicate selects (with their snapshots and aliases),
 * and `variantA()` matches every ID the catalog does not know.
 */

export type Predicate = (model: ImageModel) => boolean;

export const variantA = (): DisplayCondition[] => imageCatalog.uncatalogued();
export const modelsWhere = (predicate: Predicate) => imageCatalog.showFor(predicate);
export const showModels = (...conditions: DisplayCondition[][]) => ({
	show: { '/model': conditions.flat() },
});

export const isVariantC: Predicate = (m) => m.variant === 'C';
export const accepts =
	(parameter: ImageModel['parameters'][number]): Predicate =>
	(m) =>
		m.parameters.includes(parameter);

export const label = (value: string) => ({ name: value, value });
