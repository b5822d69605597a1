import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { VIDEO_RESULT_URL_PATHS } from './wireNames';
import { MEDIA_BY_FORMAT, sniffMediaType } from '../../../shared/binary';

/**
 * The completed task's media. The interface does not show the inner fields
 * of `data`: the shapes accepted are listed in video/wireNames.ts
 * (VIDEO_RESULT_URL_PATHS); the record itself is never changed.
 */
export function resultVideoUrl(data: unknown): string | undefined {
	if (typeof data === 'string') return /^https?:\/\//.test(data) ? data : undefined;
	for (const path of VIDEO_RESULT_URL_PATHS) {
		let current: unknown = data;
		for (const part of path.split('.')) {
			current = current && typeof current === 'object' ? (current as IDataObject)[part] : undefined;
		}
		if (typeof current === 'string' && /^https?:\/\//.test(current)) return current;
	}
	return undefined;
}

/**
 * Downloads the video with n8n's plain HTTP helper: the file may live on a
 * storage host, which must not receive the gateway credential.
 */
export async function downloadTaskVideo(
	ctx: IExecuteFunctions | IWebhookFunctions,
	itemIndex: number,
	record: IDataObject,
): Promise<IBinaryData> {
	const url = resultVideoUrl(record.data);
	if (!url) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Video task ${String(record.id)} is completed but its "data" holds no video address this node knows`,
			{
				itemIndex,
				description: `Turn off "Download Video" and read "data" from the JSON output. data = ${JSON.stringify(record.data)}`,
			},
		);
	}
	const response = (await ctx.helpers.httpRequest({
		method: 'GET',
		url,
		encoding: 'arraybuffer',
		returnFullResponse: true,
		timeout: 300_000,
	})) as IN8nHttpFullResponse;
	const bytes = Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body as ArrayBuffer);
	const format = (record.data as IDataObject | undefined)?.format;
	const media =
		sniffMediaType(bytes) ??
		(typeof format === 'string' ? MEDIA_BY_FORMAT[format] : undefined) ??
		MEDIA_BY_FORMAT.mp4;
	return await ctx.helpers.prepareBinaryData(
		bytes,
		`${String(record.id)}.${media.extension}`,
		media.mimeType,
	);
}
