import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { videoCatalog } from '../../shared/catalog/video';

/** The video model list (resourceLocator "From List"): the catalog, filtered by what the user typed. */
async function searchVideoModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const needle = (filter ?? '').trim().toLowerCase();
	const results = videoCatalog
		.options()
		.filter((option) => !needle || String(option.value).toLowerCase().includes(needle))
		.map((option) => ({ name: option.name, value: String(option.value) }));
	return { results };
}

export const videoListSearch = { searchVideoModels };
