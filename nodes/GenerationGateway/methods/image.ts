import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { imageCatalog } from '../../shared/catalog/image';

/** The image model list (resourceLocator "From List"): the catalog, filtered by what the user typed. */
async function searchImageModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const needle = (filter ?? '').trim().toLowerCase();
	const results = imageCatalog
		.options()
		.filter(
			(option) =>
				!needle ||
				option.name.toLowerCase().includes(needle) ||
				String(option.value).toLowerCase().includes(needle),
		)
		.map((option) => ({ name: option.name, value: String(option.value), description: option.description }));
	return { results };
}

export const imageListSearch = { searchImageModels };
