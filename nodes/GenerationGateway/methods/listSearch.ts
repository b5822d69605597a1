import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { Catalog, CatalogModel } from '../../shared/catalog';
import { RESOURCES } from '../actions/resources';

function catalogSearch(catalog: Catalog<CatalogModel>) {
	return async function (this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		return { results: catalog.search(filter) };
	};
}

/** Keyed by each catalog's `searchListMethod`. */
export const listSearch = Object.fromEntries(
	RESOURCES.flatMap((resource) =>
		resource.catalog ? [[resource.catalog.searchListMethod, catalogSearch(resource.catalog)]] : [],
	),
);
