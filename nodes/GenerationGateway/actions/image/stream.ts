import type { IDataObject } from 'n8n-workflow';

import {
	IMAGE_STREAM_B64_MEMBER,
	IMAGE_STREAM_COMPLETED_EVENT,
	IMAGE_STREAM_CREATED_MEMBER,
	IMAGE_STREAM_ERROR_EVENT,
	IMAGE_STREAM_PARTIAL_EVENT,
	IMAGE_STREAM_PARTIAL_INDEX_MEMBER,
} from './wireNames';
import type { StreamOutcome } from '../../../shared/sse';
import { StreamAssembler, truncated } from '../../../shared/sse';

/**
 * Folds a streamed image request into the shape of a non-streamed result. A stream
 * ending before every final image arrived is refused: a partial picture is not a result.
 */

export interface StreamedImage {
	bytes: Buffer;
	/** The event without its Base64 payload. */
	meta: IDataObject;
}

interface StreamedImageResult {
	finals: StreamedImage[];
	partials: StreamedImage[];
}

function withoutPayload(event: Record<string, unknown>): IDataObject {
	const meta: IDataObject = {};
	for (const [key, value] of Object.entries(event)) {
		if (key !== IMAGE_STREAM_B64_MEMBER) meta[key] = value as IDataObject[string];
	}
	return meta;
}

export const IMAGE_STREAM_FAILED = 'The image stream failed';

export class ImageStreamCollector extends StreamAssembler<StreamedImageResult> {
	private readonly finals: StreamedImage[] = [];

	private readonly partials: StreamedImage[] = [];

	constructor(
		private readonly expected: number,
		/** Partial images cost memory: kept only when asked for. */
		private readonly keepPartials: boolean,
	) {
		super();
	}

	protected take(type: string, data: Record<string, unknown>): void {
		if (type === IMAGE_STREAM_ERROR_EVENT) {
			const error = (data.error ?? data) as IDataObject;
			const message = typeof error.message === 'string' ? error.message : JSON.stringify(error);
			return this.fail(`The gateway reported an error in the stream: ${message}`, 'upstream');
		}
		if (type !== IMAGE_STREAM_COMPLETED_EVENT && type !== IMAGE_STREAM_PARTIAL_EVENT) return;
		if (type === IMAGE_STREAM_PARTIAL_EVENT && !this.keepPartials) return;
		const base64 = data[IMAGE_STREAM_B64_MEMBER];
		if (typeof base64 !== 'string' || !base64) {
			return this.fail(
				`The stream sent a "${type}" event without an image (${IMAGE_STREAM_B64_MEMBER} missing)`,
			);
		}
		const image = { bytes: Buffer.from(base64, 'base64'), meta: withoutPayload(data) };
		(type === IMAGE_STREAM_COMPLETED_EVENT ? this.finals : this.partials).push(image);
	}

	protected result(): StreamOutcome<StreamedImageResult> {
		const got = this.finals.length;
		if (got < this.expected) {
			return truncated(
				got === 0
					? `The stream ended without its final image (no "${IMAGE_STREAM_COMPLETED_EVENT}" event)`
					: `The stream ended after ${got} of ${this.expected} final images`,
			);
		}
		const partials = [...this.partials].sort(
			(a, b) =>
				Number(a.meta[IMAGE_STREAM_PARTIAL_INDEX_MEMBER] ?? 0) -
				Number(b.meta[IMAGE_STREAM_PARTIAL_INDEX_MEMBER] ?? 0),
		);
		return { ok: true, value: { finals: this.finals, partials } };
	}
}

export function streamedResultJson(result: StreamedImageResult): IDataObject {
	const json: IDataObject = {};
	const last = result.finals[result.finals.length - 1].meta;
	for (const [key, value] of Object.entries(last)) {
		if (key === 'type') continue;
		json[key === IMAGE_STREAM_CREATED_MEMBER ? 'created' : key] = value;
	}
	json.data = result.finals.map((_image, index) => ({ index }) as IDataObject);
	return json;
}
