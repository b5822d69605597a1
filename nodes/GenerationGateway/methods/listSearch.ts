import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { Catalog, CatalogModel } from '../../shared/catalog';
import { imageCatalog } from '../../shared/catalog/image';
import { speechCatalog } from '../../shared/catalog/speech';
import { videoCatalog } from '../../shared/catalog/video';

/** A resourceLocator "From List" search over one resource's catalog. */
function catalogSearch<M extends CatalogModel>(catalog: Catalog<M>) {
	return async function (this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		return { results: catalog.search(filter) };
	};
}

/** The model lists of the form, by the names the fields' `searchListMethod` use. */
export const listSearch = {
	searchImageModels: catalogSearch(imageCatalog),
	searchSpeechModels: catalogSearch(speechCatalog),
	searchVideoModels: catalogSearch(videoCatalog),
};
