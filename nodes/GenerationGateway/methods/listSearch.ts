import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { Catalog, CatalogModel } from '../../shared/catalog';
import { RESOURCES } from '../actions/resources';

/** A resourceLocator "From List" search over one resource's catalog. */
function catalogSearch(catalog: Catalog<CatalogModel>) {
	return async function (this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		return { results: catalog.search(filter) };
	};
}

/** The model lists of the form, one per resource with a catalog, by its `searchListMethod`. */
export const listSearch = Object.fromEntries(
	RESOURCES.flatMap((resource) =>
		resource.catalog ? [[resource.catalog.searchListMethod, catalogSearch(resource.catalog)]] : [],
	),
);
