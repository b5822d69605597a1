import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { speechCatalog } from '../../shared/catalog/speech';

/** The speech model list (resourceLocator "From List"): the catalog, filtered by what the user typed. */
async function searchSpeechModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const needle = (filter ?? '').trim().toLowerCase();
	const results = speechCatalog
		.options()
		.filter(
			(option) =>
				!needle ||
				option.name.toLowerCase().includes(needle) ||
				String(option.value).toLowerCase().includes(needle),
		)
		.map((option) => ({ name: option.name, value: String(option.value) }));
	return { results };
}

export const speechListSearch = { searchSpeechModels };
