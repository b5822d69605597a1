import type { IBinaryData, IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { VIDEO_RESULT_URL_PATHS } from './wireNames';
import { MEDIA_BY_FORMAT, sniffMediaType } from '../../../shared/binary';
import { downloadToBinary } from '../../../shared/download';
import { readRequestSettings } from '../descriptions';

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

/** A failed download names the task, so the paid video can still be fetched. */
export async function downloadTaskVideo(
	ctx: IExecuteFunctions | IWebhookFunctions,
	itemIndex: number,
	record: IDataObject,
): Promise<IBinaryData> {
	const id = String(record.id);
	const again = `Video → Wait for Completion with task ID ${id} and Download Video on downloads it again; Video → Get shows its record.`;
	const url = resultVideoUrl(record.data);
	if (!url) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Video task ${id} is completed but its "data" holds no video address this node knows`,
			{
				itemIndex,
				description: `Turn off "Download Video" and read "data" from the JSON output. data = ${JSON.stringify(record.data)}`,
			},
		);
	}
	const format = (record.data as IDataObject | undefined)?.format;
	const { binary } = await downloadToBinary(ctx, {
		url,
		itemIndex,
		what: `the video of task ${id}`,
		advice: `The task completed and was paid for; only the download failed. ${again}`,
		silenceMs: readRequestSettings(ctx, itemIndex).timeoutMs,
		name: (head) => {
			const media =
				sniffMediaType(head) ??
				(typeof format === 'string' ? MEDIA_BY_FORMAT[format] : undefined) ??
				MEDIA_BY_FORMAT.mp4;
			return { fileName: `${id}.${media.extension}`, mimeType: media.mimeType };
		},
	});
	return binary;
}
