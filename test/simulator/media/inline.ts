import { invalid } from '../http';

/**
 * Checks of media sent inline (as a `data:` URL or as base64 text), shared
 * by the video, message and cached-content routes: the text must be strict
 * base64 that decodes to bytes, and the declared MIME type must fit the
 * member (an image for a frame, a PDF for a document, ...).
 */

const MIME = /^[a-z]+\/[a-z0-9.+-]+$/i;

/**
 * Strict base64: decoding and encoding again gives the same text (Node's
 * decoder alone skips stray characters). Returns the decoded size. A regular
 * expression would overflow the stack on a 27 MB text.
 */
export function checkBase64(param: string, text: unknown): number {
	if (typeof text !== 'string' || !text.length) invalid(param, `${param}: base64 data is required`);
	const bytes = Buffer.from(text, 'base64');
	if (text.length % 4 !== 0 || bytes.toString('base64') !== text)
		invalid(param, `${param}: is not valid base64`);
	return bytes.length;
}

export function checkMime(param: string, mimeType: unknown, accepts: (mime: string) => boolean): string {
	if (typeof mimeType !== 'string' || !MIME.test(mimeType))
		invalid(param, `${param}: a MIME type is required`);
	if (!accepts(mimeType.toLowerCase())) invalid(param, `${param}: ${mimeType} is not accepted here`);
	return mimeType.toLowerCase();
}

/**
 * A URL member that may carry a data URL: an http(s) address is accepted as
 * is; a `data:` URL must be `data:<mime>;base64,<base64>` with a MIME type of
 * `kind` (image, video or audio). Returns the decoded size of a data URL.
 */
export function checkMediaUrl(param: string, url: string, kind: string): number | undefined {
	if (!url.startsWith('data:')) {
		if (!/^https?:\/\//i.test(url)) invalid(param, `${param}: must be an http(s) URL or a data URL`);
		return undefined;
	}
	const comma = url.indexOf(',');
	const header = comma < 0 ? '' : url.slice(5, comma);
	if (!header.endsWith(';base64')) invalid(param, `${param}: a data URL must be data:<mime>;base64,<data>`);
	checkMime(param, header.slice(0, -';base64'.length), (mime) => mime.startsWith(`${kind}/`));
	return checkBase64(param, url.slice(comma + 1));
}

/** The MIME type and bytes of a `data:<mime>;base64,<data>` URL (for tests and the demo). */
export function decodeDataUrl(url: unknown): { mimeType: string; bytes: Buffer } {
	const text = String(url);
	const comma = text.indexOf(',');
	const header = text.startsWith('data:') && comma > 0 ? text.slice(5, comma) : '';
	if (!header.endsWith(';base64')) throw new Error(`not a base64 data URL: ${text.slice(0, 40)}`);
	return {
		mimeType: header.slice(0, -';base64'.length),
		bytes: Buffer.from(text.slice(comma + 1), 'base64'),
	};
}
