/**
 * Accepted and rejected "POST /v1/videos" bodies, row by row from the
 * interface's family tables. Shared by the package's rules test and the
 * simulator's: both implementations must agree on every row. A rejected row
 * names the form label the package's message starts with.
 */
const img = (url = 'https://x/a.png', extra = {}) => ({ type: 'image_url', image_url: url, ...extra });
const vid = (role?: string) => ({ video_url: 'https://x/a.mp4', ...(role ? { role } : {}) });
const aud = (extra = {}) => ({ audio_url: 'https://x/a.mp3', role: 'reference_audio', ...extra });
const first = { image_url: 'https://x/f.png', frame_type: 'first_frame' };
const last = { image_url: 'https://x/l.png', frame_type: 'last_frame' };
const n = <T>(count: number, make: () => T) => Array.from({ length: count }, make);

export const accepted: Array<[string, Record<string, unknown>]> = [
	[
		'vidA-2.5 text 30 s 1080p',
		{ model: 'vidA-2.5', duration: 30, resolution: '1080p', aspect_ratio: '21:9' },
	],
	[
		'vidA-2.5 4 s adaptive with audio',
		{ model: 'vidA-2.5', duration: 4, aspect_ratio: 'adaptive', generate_audio: false },
	],
	['vidA-2.0 4K 15 s', { model: 'vidA-2.0', duration: 15, resolution: '4K' }],
	['vidA-2.0-mini first+last frame', { model: 'vidA-2.0-mini', duration: 4, frame_images: [first, last] }],
	['vidA-2.5 50 references', { model: 'vidA-2.5', input_references: n(50, () => img()) }],
	['vidA-2.0 15 references', { model: 'vidA-2.0', input_references: n(15, () => img()) }],
	['vidA edit allows -1', { model: 'vidA-2.5', duration: -1, input_references: [vid('source_video')] }],
	['vidA extend allows -1', { model: 'vidA-2.0', duration: -1, input_references: [vid('first_clip')] }],
	['vidA full-modal roles', { model: 'vidA-2.5', input_references: [img(), vid('reference_video'), aud()] }],
	['vidA seed bounds', { model: 'vidA-2.5', seed: 2147483647 }],
	['vidA seed -1', { model: 'vidA-2.5', seed: -1 }],
	['vidA https callback', { model: 'vidA-2.5', callback_url: 'https://hooks.example.com/cb' }],
	['vidA snapshot id', { model: 'vidA-2.5-2026-01-01', duration: 30 }],
	[
		'vidA extensions',
		{
			model: 'vidA-2.5',
			metadata: {
				camera_fixed: true,
				watermark: false,
				return_last_frame: true,
				reference_task_type: 'auto',
				output_format: 'mov',
				service_tier: 'flex',
				priority: 9,
			},
		},
	],
	[
		'vidB-1.5-fast 6-30 s, 7 pictures',
		{ model: 'vidB-1.5-fast', duration: 30, input_references: n(7, () => img()) },
	],
	[
		'vidB-1.5-fast first and last frame',
		{ model: 'vidB-1.5-fast', duration: 6, frame_images: [first, last] },
	],
	[
		'vidB-1.5 one picture + 3 voices',
		{
			model: 'vidB-1.5',
			duration: 15,
			resolution: '1080p',
			input_references: [img(), ...n(3, () => aud({ voice_id: 'v1' }))],
		},
	],
	['vidB-1.5 first frame only', { model: 'vidB-1.5', duration: 1, frame_images: [first] }],
	['vidB text 1 s 2:3', { model: 'vidB', duration: 1, aspect_ratio: '2:3' }],
	['vidB extension 10 s', { model: 'vidB', duration: 10, input_references: [vid('source_video')] }],
	[
		'vidC-1.1 first frame 3 s 9:21',
		{ model: 'vidC-1.1', duration: 3, aspect_ratio: '9:21', frame_images: [first] },
	],
	[
		'vidC-1.1 9 reference images',
		{ model: 'vidC-1.1', input_references: n(9, () => img(undefined, { role: 'reference_image' })) },
	],
	[
		'vidC-1.0 editor: video + 5 images at 720p',
		{ model: 'vidC-1.0', resolution: '720p', input_references: [vid('source_video'), ...n(5, () => img())] },
	],
	['vidC seed 0', { model: 'vidC-1.0', seed: 0 }],
	['vidD 4 s 768p', { model: 'vidD-h3', duration: 4, resolution: '768p', aspect_ratio: 'adaptive' }],
	[
		'vidD 9 images, 3 videos, 3 audios',
		{
			model: 'vidD-h3',
			duration: 15,
			resolution: '2K',
			input_references: [...n(9, () => img()), ...n(3, () => vid('reference_video')), ...n(3, () => aud())],
		},
	],
	['vidD last frame only', { model: 'vidD-h3', duration: 5, frame_images: [last] }],
	['uncatalogued model, generic rules', { model: 'vidZ-9', duration: 20, resolution: '2K' }],
];

export const rejected: Array<[string, Record<string, unknown>, string]> = [
	['empty prompt', { model: 'vidA-2.5', prompt: '' }, 'Prompt'],
	['vidA-2.5 31 s', { model: 'vidA-2.5', duration: 31 }, 'Duration (Seconds)'],
	['vidA-2.5 3 s', { model: 'vidA-2.5', duration: 3 }, 'Duration (Seconds)'],
	['vidA-2.0 16 s', { model: 'vidA-2.0', duration: 16 }, 'Duration (Seconds)'],
	['vidA -1 outside edit/extend', { model: 'vidA-2.5', duration: -1 }, 'Duration (Seconds)'],
	['vidA-2.0-mini -1 (no edit mode)', { model: 'vidA-2.0-mini', duration: -1 }, 'Duration (Seconds)'],
	['vidA non-integer duration', { model: 'vidA-2.5', duration: 5.5 }, 'Duration (Seconds)'],
	['4K on vidA-2.5', { model: 'vidA-2.5', resolution: '4K' }, 'Resolution'],
	['1080p on vidA-2.0-mini', { model: 'vidA-2.0-mini', resolution: '1080p' }, 'Resolution'],
	['vidA 2:3', { model: 'vidA-2.5', aspect_ratio: '2:3' }, 'Aspect Ratio'],
	['three frames', { model: 'vidA-2.5', frame_images: [first, last, first] }, 'First/Last Frame Images'],
	['two first frames', { model: 'vidA-2.5', frame_images: [first, first] }, 'First/Last Frame Images'],
	[
		'frame kind unknown',
		{ model: 'vidA-2.5', frame_images: [{ image_url: 'https://x', frame_type: 'middle' }] },
		'First/Last Frame Images (#1 frame_type)',
	],
	[
		'references + frames',
		{ model: 'vidA-2.5', frame_images: [first], input_references: [img()] },
		'References',
	],
	['vidA-2.5 51 references', { model: 'vidA-2.5', input_references: n(51, () => img()) }, 'References'],
	['vidA-2.0 16 references', { model: 'vidA-2.0', input_references: n(16, () => img()) }, 'References'],
	['vidA-2.0-mini references', { model: 'vidA-2.0-mini', input_references: [img()] }, 'References'],
	[
		'type disagrees with URL',
		{ model: 'vidA-2.5', input_references: [{ type: 'video_url', image_url: 'https://x' }] },
		'References (#1)',
	],
	[
		'item without URL',
		{ model: 'vidA-2.5', input_references: [{ role: 'reference_image' }] },
		'References (#1)',
	],
	[
		'item with two URLs',
		{ model: 'vidA-2.5', input_references: [{ image_url: 'https://x', video_url: 'https://y' }] },
		'References (#1)',
	],
	['empty URL', { model: 'vidA-2.5', input_references: [{ image_url: '' }] }, 'References (#1 image_url)'],
	[
		'unknown role',
		{ model: 'vidA-2.5', input_references: [img(undefined, { role: 'style' })] },
		'References (#1)',
	],
	[
		'role on the wrong kind',
		{ model: 'vidA-2.5', input_references: [img(undefined, { role: 'source_video' })] },
		'References (#1)',
	],
	['voice on vidA', { model: 'vidA-2.5', input_references: [aud({ voice_id: 'v' })] }, 'References (#1)'],
	['seed above range', { model: 'vidA-2.5', seed: 2147483648 }, 'Seed'],
	['seed below range', { model: 'vidC-1.1', seed: -2 }, 'Seed'],
	['http callback', { model: 'vidA-2.5', callback_url: 'http://hooks.example.com' }, 'Callback URL'],
	[
		'extension integer 10',
		{ model: 'vidA-2.5', metadata: { priority: 10 } },
		'vidA Extensions: Upstream Integer (0-9)',
	],
	[
		'extension container avi',
		{ model: 'vidA-2.5', metadata: { output_format: 'avi' } },
		'vidA Extensions: Output Container',
	],
	[
		'extension service level',
		{ model: 'vidA-2.5', metadata: { service_tier: 'fast' } },
		'vidA Extensions: Service Level',
	],
	[
		'extension task type',
		{ model: 'vidA-2.5', metadata: { reference_task_type: 'remix' } },
		'vidA Extensions: Reference Task Type',
	],
	[
		'edit on vidA-2.0-mini',
		{ model: 'vidA-2.0-mini', metadata: { reference_task_type: 'edit' } },
		'vidA Extensions: Reference Task Type',
	],
	['vidB-1.5-fast 5 s', { model: 'vidB-1.5-fast', duration: 5 }, 'Duration (Seconds)'],
	['vidB-1.5 16 s', { model: 'vidB-1.5', duration: 16, frame_images: [first] }, 'Duration (Seconds)'],
	[
		'vidB extension 11 s',
		{ model: 'vidB', duration: 11, input_references: [vid('source_video')] },
		'Duration (Seconds)',
	],
	['vidB-1.5-fast 1080p', { model: 'vidB-1.5-fast', resolution: '1080p' }, 'Resolution'],
	['vidB 4:3', { model: 'vidB', aspect_ratio: '4:3' }, 'Aspect Ratio'],
	['vidB generate_audio', { model: 'vidB', generate_audio: false }, 'Generate Audio'],
	['vidB-1.5 last frame', { model: 'vidB-1.5', frame_images: [first, last] }, 'First/Last Frame Images'],
	['vidB last frame', { model: 'vidB', frame_images: [last] }, 'First/Last Frame Images'],
	['vidB 8 pictures', { model: 'vidB', input_references: n(8, () => img()) }, 'References'],
	['vidB-1.5 no picture', { model: 'vidB-1.5' }, 'References'],
	['vidB-1.5 two pictures', { model: 'vidB-1.5', input_references: [img(), img()] }, 'References'],
	[
		'vidB-1.5 4 voices',
		{ model: 'vidB-1.5', input_references: [img(), ...n(4, () => aud({ voice_id: 'v' }))] },
		'References',
	],
	['vidB-1.5-fast video', { model: 'vidB-1.5-fast', input_references: [vid('source_video')] }, 'References'],
	[
		'vidB reference video (not an extension source)',
		{ model: 'vidB', input_references: [vid('reference_video')] },
		'References (#1)',
	],
	['vidC 2 s', { model: 'vidC-1.1', duration: 2 }, 'Duration (Seconds)'],
	['vidC 16 s', { model: 'vidC-1.0', duration: 16 }, 'Duration (Seconds)'],
	['vidC 2:3', { model: 'vidC-1.1', aspect_ratio: '2:3' }, 'Aspect Ratio'],
	['vidC last frame', { model: 'vidC-1.1', frame_images: [last] }, 'First/Last Frame Images'],
	['vidC two first frames', { model: 'vidC-1.1', frame_images: [first, first] }, 'First/Last Frame Images'],
	['vidC 10 references', { model: 'vidC-1.1', input_references: n(10, () => img()) }, 'References'],
	['vidC-1.1 editing', { model: 'vidC-1.1', input_references: [vid('source_video')] }, 'References'],
	[
		'vidC-1.0 editor 6 images',
		{ model: 'vidC-1.0', input_references: [vid('source_video'), ...n(6, () => img())] },
		'References',
	],
	[
		'vidC-1.0 editing at 480p',
		{ model: 'vidC-1.0', resolution: '480p', input_references: [vid('source_video')] },
		'Resolution',
	],
	['vidC audio reference', { model: 'vidC-1.1', input_references: [img(), aud()] }, 'References (#2)'],
	['vidC generate_audio', { model: 'vidC-1.0', generate_audio: true }, 'Generate Audio'],
	['vidD without duration', { model: 'vidD-h3' }, 'Duration (Seconds)'],
	['vidD 16 s', { model: 'vidD-h3', duration: 16 }, 'Duration (Seconds)'],
	['vidD 1080p', { model: 'vidD-h3', duration: 5, resolution: '1080p' }, 'Resolution'],
	['vidD 5:4', { model: 'vidD-h3', duration: 5, aspect_ratio: '5:4' }, 'Aspect Ratio'],
	['vidD 10 images', { model: 'vidD-h3', duration: 5, input_references: n(10, () => img()) }, 'References'],
	[
		'vidD 4 videos',
		{ model: 'vidD-h3', duration: 5, input_references: n(4, () => vid('reference_video')) },
		'References',
	],
	['vidD 4 audios', { model: 'vidD-h3', duration: 5, input_references: n(4, () => aud()) }, 'References'],
	[
		'vidD 16 items',
		{
			model: 'vidD-h3',
			duration: 5,
			input_references: [
				...n(9, () => img()),
				...n(3, () => vid('reference_video')),
				...n(3, () => aud()),
				img(),
			],
		},
		'References',
	],
	[
		'vidD source video role',
		{ model: 'vidD-h3', duration: 5, input_references: [vid('source_video')] },
		'References (#1)',
	],
	['vidD generate_audio', { model: 'vidD-h3', duration: 5, generate_audio: true }, 'Generate Audio'],
];
