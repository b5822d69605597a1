/**
 * The rules of POST /v1/images/generations (request tables, per-model
 * combinations, Errors item 2, Limits) as accepted and rejected request
 * bodies, one table per variant. Each rejected row names the form label the
 * package's refusal starts with, and the wire member the simulator reports in
 * `param`. Used by the package's schema test and by the simulator's test.
 */

export type Body = Record<string, unknown>;
export type Accepted = [name: string, body: Body];
export type Rejected = [name: string, body: Body, label: string];

export const p = (length: number) => 'a'.repeat(length);

const B = (model: string, extra: Body = {}): Body => ({ model, prompt: 'a lighthouse at dawn', ...extra });
const C = (extra: Body = {}): Body => ({ model: 'vendor/imgE-3.0-pro', prompt: '灯塔 at dawn', ...extra });
const A = (extra: Body = {}): Body => ({ model: 'my-gateway-alias', prompt: 'a lighthouse', ...extra });

/** Variant B: accepted bodies. */
export const B_ACCEPTED: Accepted[] = [
	['imagegen-2 minimal', B('imagegen-2')],
	['imagegen-2 prompt of 32000', B('imagegen-2', { prompt: p(32000) })],
	['imagegen-2 landscape 3840x2160', B('imagegen-2', { size: '3840x2160' })],
	['imagegen-2 portrait 2160x3840', B('imagegen-2', { size: '2160x3840' })],
	['imagegen-2 ratio exactly 3:1', B('imagegen-2', { size: '1536x512' })],
	['imagegen-2 auto', B('imagegen-2', { size: 'auto' })],
	['imagegen-2 snapshot', B('imagegen-2-2026-04-21', { size: '1024x1024', quality: 'high' })],
	['imagegen-2.5-sunburst quality max', B('imagegen-2.5-sunburst', { quality: 'max' })],
	['imagegen-2.5-flare snapshot xhigh', B('imagegen-2.5-flare-2026-09-08', { quality: 'xhigh' })],
	['imagegen-1 listed size', B('imagegen-1', { size: '1536x1024', quality: 'low' })],
	['imagegen-1.5 auto', B('imagegen-1.5', { size: 'auto' })],
	['imagegen-1-mini portrait', B('imagegen-1-mini', { size: '1024x1536' })],
	['n 10 on imagegen', B('imagegen-1', { n: 10 })],
	['transparent with png', B('imagegen-2', { background: 'transparent', output_format: 'png' })],
	['transparent with webp', B('imagegen-2', { background: 'transparent', output_format: 'webp' })],
	['opaque without a format', B('imagegen-2', { background: 'opaque' })],
	['null enums', B('imagegen-2', { background: null, moderation: null, quality: null })],
	['moderation low', B('imagegen-2', { moderation: 'low' })],
	['compression 0 with jpeg', B('imagegen-2', { output_format: 'jpeg', output_compression: 0 })],
	['compression 100 with webp', B('imagegen-2', { output_format: 'webp', output_compression: 100 })],
	['stream with 0 partials', B('imagegen-2', { stream: true, partial_images: 0 })],
	['stream with 3 partials', B('imagegen-2.5-flare', { stream: true, partial_images: 3 })],
	['user', B('imagegen-2', { user: 'user-42' })],
	['unknown member passes through', B('imagegen-2', { some_future_member: 1 })],
	['legacyimg-3 full', B('legacyimg-3', { n: 1, style: 'natural', quality: 'hd', size: '1792x1024' })],
	['legacyimg-3 prompt of 4000 and url', B('legacyimg-3', { prompt: p(4000), response_format: 'url' })],
	['legacyimg-2 prompt of 1000', B('legacyimg-2', { prompt: p(1000), size: '256x256', n: 10 })],
	['legacyimg-2 standard + b64', B('legacyimg-2', { quality: 'standard', response_format: 'b64_json' })],
];

/** Variant B: rejected bodies and the form label named. */
export const B_REJECTED: Rejected[] = [
	['empty prompt', B('imagegen-2', { prompt: '' }), 'Prompt'],
	['missing prompt', { model: 'imagegen-2' }, 'Prompt'],
	['imagegen prompt of 32001', B('imagegen-2', { prompt: p(32001) }), 'Prompt'],
	['legacyimg-2 prompt of 1001', B('legacyimg-2', { prompt: p(1001) }), 'Prompt'],
	['legacyimg-3 prompt of 4001', B('legacyimg-3', { prompt: p(4001) }), 'Prompt'],
	['n 0', B('imagegen-2', { n: 0 }), 'Number of Images'],
	['n 11', B('legacyimg-2', { n: 11 }), 'Number of Images'],
	['n 1.5', B('imagegen-2', { n: 1.5 }), 'Number of Images'],
	['n 2 on legacyimg-3', B('legacyimg-3', { n: 2 }), 'Number of Images'],
	[
		'transparent with jpeg',
		B('imagegen-2', { background: 'transparent', output_format: 'jpeg' }),
		'Background',
	],
	['transparent without format', B('imagegen-2', { background: 'transparent' }), 'Background'],
	['background white', B('imagegen-2', { background: 'white' }), 'Background'],
	['moderation high', B('imagegen-2', { moderation: 'high' }), 'Moderation'],
	['output_format gif', B('imagegen-2', { output_format: 'gif' }), 'Output Format'],
	[
		'compression 101',
		B('imagegen-2', { output_format: 'webp', output_compression: 101 }),
		'Output Compression',
	],
	[
		'compression -1',
		B('imagegen-2', { output_format: 'jpeg', output_compression: -1 }),
		'Output Compression',
	],
	[
		'compression with png',
		B('imagegen-2', { output_format: 'png', output_compression: 50 }),
		'Output Compression',
	],
	['compression without format', B('imagegen-2', { output_compression: 50 }), 'Output Compression'],
	['partial_images 4', B('imagegen-2', { stream: true, partial_images: 4 }), 'Partial Images'],
	['partial_images -1', B('imagegen-2', { stream: true, partial_images: -1 }), 'Partial Images'],
	['stream not boolean', B('imagegen-2', { stream: 'yes' }), 'Stream'],
	['response_format on imagegen', B('imagegen-2', { response_format: 'b64_json' }), 'Response Format'],
	['response_format on imagegen-1', B('imagegen-1', { response_format: 'url' }), 'Response Format'],
	['response_format json', B('legacyimg-2', { response_format: 'json' }), 'Response Format'],
	['side not multiple of 16', B('imagegen-2', { size: '1000x1000' }), 'Size'],
	['ratio above 3:1', B('imagegen-2', { size: '1600x512' }), 'Size'],
	['ratio below 1:3', B('imagegen-2.5-sunburst', { size: '512x1600' }), 'Size'],
	['long side above 3840', B('imagegen-2', { size: '4800x1600' }), 'Size'],
	['more pixels than 3840x2160', B('imagegen-2', { size: '3200x3200' }), 'Size'],
	['size not WIDTHxHEIGHT', B('imagegen-2', { size: '1024*1024' }), 'Size'],
	['imagegen-1 unlisted size', B('imagegen-1', { size: '1792x1024' }), 'Size'],
	['imagegen-1 free size', B('imagegen-1-mini', { size: '1024x768' }), 'Size'],
	['legacyimg-3 size 256x256', B('legacyimg-3', { size: '256x256' }), 'Size'],
	['legacyimg-3 size auto', B('legacyimg-3', { size: 'auto' }), 'Size'],
	['legacyimg-2 size 1792x1024', B('legacyimg-2', { size: '1792x1024' }), 'Size'],
	['imagegen-2 quality xhigh', B('imagegen-2', { quality: 'xhigh' }), 'Quality'],
	['imagegen-1 quality hd', B('imagegen-1', { quality: 'hd' }), 'Quality'],
	['legacyimg-3 quality low', B('legacyimg-3', { quality: 'low' }), 'Quality'],
	['legacyimg-2 quality hd', B('legacyimg-2', { quality: 'hd' }), 'Quality'],
	['style on imagegen', B('imagegen-2', { style: 'vivid' }), 'Style'],
	['style on legacyimg-2', B('legacyimg-2', { style: 'vivid' }), 'Style'],
	['style bold', B('legacyimg-3', { style: 'bold' }), 'Style'],
	['background on legacyimg-3', B('legacyimg-3', { background: 'opaque' }), 'Background'],
	['moderation on legacyimg-2', B('legacyimg-2', { moderation: 'auto' }), 'Moderation'],
	['output_format on legacyimg-3', B('legacyimg-3', { output_format: 'png' }), 'Output Format'],
	['compression on legacyimg-2', B('legacyimg-2', { output_compression: 10 }), 'Output Compression'],
	['stream on legacyimg-3', B('legacyimg-3', { stream: true }), 'Stream'],
	['partial_images on legacyimg-2', B('legacyimg-2', { partial_images: 1 }), 'Partial Images'],
	['user not a string', B('imagegen-2', { user: 42 }), 'User'],
];

/** Variant C: accepted bodies. */
export const C_ACCEPTED: Accepted[] = [
	['minimal', C()],
	['alias without vendor/', { ...C(), model: 'imgE-3.0-pro' }],
	['size auto', C({ size: 'auto' })],
	['smallest area 512x512', C({ size: '512x512' })],
	['largest area 2048x2048', C({ size: '2048x2048' })],
	['ratio exactly 8:1', C({ size: '2048x256' })],
	['ratio exactly 1:8', C({ size: '256x2048' })],
	['3 reference images', C({ images: ['https://x/1.png', 'https://x/2.png', 'https://x/3.png'] })],
	['thinking with prompt_extend', C({ prompt_extend: true, enable_thinking: true })],
	['thinking without prompt_extend set', C({ enable_thinking: true })],
	['thinking off with prompt_extend off', C({ prompt_extend: false, enable_thinking: false })],
	['agent for text-to-image', C({ prompt_extend_mode: 'agent' })],
	['direct with images', C({ prompt_extend_mode: 'direct', images: ['https://x/1.png'] })],
	['seed 0', C({ seed: 0 })],
	['seed 2147483647', C({ seed: 2147483647 })],
	['the other members', C({ negative_prompt: 'blur', watermark: true, response_format: 'url' })],
];

/** Variant C: rejected bodies and the form label named. */
export const C_REJECTED: Rejected[] = [
	['n (rejected by the gateway)', C({ n: 1 }), 'Number of Images'],
	['empty prompt', C({ prompt: '' }), 'Prompt'],
	['size pattern', C({ size: '1024x' }), 'Size'],
	['area below 512x512', C({ size: '511x512' }), 'Size'],
	['area above 2048x2048', C({ size: '2049x2048' }), 'Size'],
	['ratio above 8:1', C({ size: '4096x256' }), 'Size'],
	['ratio below 1:8', C({ size: '256x4096' }), 'Size'],
	['4 reference images', C({ images: ['a', 'b', 'c', 'd'] }), 'Reference Images'],
	['seed -1', C({ seed: -1 }), 'Seed'],
	['seed 2147483648', C({ seed: 2147483648 }), 'Seed'],
	['seed 1.5', C({ seed: 1.5 }), 'Seed'],
	['thinking with prompt_extend off', C({ prompt_extend: false, enable_thinking: true }), 'Prompt Extend'],
	[
		'agent with images',
		C({ prompt_extend_mode: 'agent', images: ['https://x/1.png'] }),
		'Prompt Extend Mode',
	],
	['unknown extend mode', C({ prompt_extend_mode: 'smart' }), 'Prompt Extend Mode'],
	['watermark not boolean', C({ watermark: 'yes' }), 'Watermark'],
	['response_format png', C({ response_format: 'png' }), 'Response Format'],
];

/** Variant A: accepted bodies. */
export const A_ACCEPTED: Accepted[] = [
	['minimal', A()],
	['n 4', A({ n: 4 })],
	['size auto', A({ size: 'auto' })],
	['any WIDTHxHEIGHT', A({ size: '640x480' })],
	['1 image', A({ images: ['https://x/1.png'] })],
	['5 images', A({ images: ['1', '2', '3', '4', '5'] })],
	['data URL image', A({ images: ['data:image/png;base64,iVBORw0KGgo='] })],
	['hd, url, pro', A({ quality: 'hd', response_format: 'url', enable_pro: true })],
];

/** Variant A: rejected bodies and the form label named. */
export const A_REJECTED: Rejected[] = [
	['n 5', A({ n: 5 }), 'Number of Images'],
	['n 0', A({ n: 0 }), 'Number of Images'],
	['size with unit', A({ size: '640x480px' }), 'Size'],
	['size with a 0 side', A({ size: '0x480' }), 'Size'],
	['no images in the list', A({ images: [] }), 'Reference Images'],
	['6 images', A({ images: ['1', '2', '3', '4', '5', '6'] }), 'Reference Images'],
	['an empty image string', A({ images: ['https://x/1.png', ''] }), 'Reference Images (#2)'],
	['an image that is not a string', A({ images: [{ url: 'x' }] }), 'Reference Images (#1)'],
	['quality ultra', A({ quality: 'ultra' }), 'Quality'],
	['response_format png', A({ response_format: 'png' }), 'Response Format'],
	['enable_pro not boolean', A({ enable_pro: 'yes' }), 'Pro Mode'],
	['empty prompt', A({ prompt: '' }), 'Prompt'],
	['empty model', A({ model: '' }), 'Model'],
];
