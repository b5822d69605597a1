import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forModels } from './fields';
import { DEFAULT_WAIT_DEADLINE_MS, MAX_WAIT_DEADLINE_MS, waitDeadlineMs } from '../../../shared/polling';
import { formSetting } from '../../../shared/validation';

/** Optional members of a create (seed, callback, vidA extensions) and the waiting options. */

/** Auto waits by callback for at most this many tasks: each callback makes n8n load the whole waiting execution. */
export const AUTO_CALLBACK_MAX_TASKS = 5;

const vidA = forModels((m) => m.extensions);

export const createOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'videoOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Callback URL',
			name: 'callbackUrl',
			type: 'string',
			default: '',
			placeholder: 'https://n8n.example.com/webhook/…',
			description:
				'An https address the gateway calls when the task status changes, e.g. the URL of a Generation Gateway Trigger node. (Create and Wait sets its own in callback mode.).',
		},
		{
			displayName: 'Fixed Camera',
			name: 'cameraFixed',
			type: 'boolean',
			default: false,
			description: 'Whether the camera stays still (vidA extension)',
			displayOptions: vidA,
		},
		{
			displayName: 'Output Container',
			name: 'outputFormat',
			type: 'options',
			options: [
				{ name: 'MP4', value: 'mp4' },
				{ name: 'MOV', value: 'mov' },
			],
			default: 'mp4',
			displayOptions: vidA,
		},
		{
			displayName: 'Reference Task Type',
			name: 'referenceTaskType',
			type: 'options',
			options: [
				{ name: 'Auto', value: 'auto' },
				{ name: 'Reference', value: 'reference' },
				{ name: 'Edit', value: 'edit' },
				{ name: 'Extend', value: 'extend' },
			],
			default: 'auto',
			description: 'The gateway sets edit and extend itself from the references; set it only to force one',
			displayOptions: vidA,
		},
		{
			displayName: 'Return Last Frame',
			name: 'returnLastFrame',
			type: 'boolean',
			default: false,
			description: 'Whether the result also carries the last frame as an image (vidA extension)',
			displayOptions: vidA,
		},
		{
			displayName: 'Seed',
			name: 'seed',
			type: 'number',
			typeOptions: { minValue: -1, maxValue: 2147483647 },
			default: -1,
			description: 'Random seed, -1 to 2147483647 (-1 = random). Same seed and inputs give similar videos.',
			displayOptions: forModels((m) => m.seed),
		},
		{
			displayName: 'Service Level',
			name: 'serviceTier',
			type: 'options',
			options: [
				{ name: 'Default', value: 'default' },
				{ name: 'Flex', value: 'flex' },
			],
			default: 'default',
			displayOptions: vidA,
		},
		{
			displayName: 'Upstream Integer (0-9)',
			name: 'level',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 9 },
			default: 0,
			description:
				'An integer 0-9 of the vidA extension object. The interface does not say what it means; it is sent as metadata.priority (an assumed name).',
			displayOptions: vidA,
		},
		{
			displayName: 'Watermark',
			name: 'watermark',
			type: 'boolean',
			default: false,
			description: 'Whether the video carries the upstream watermark (vidA extension)',
			displayOptions: vidA,
		},
	],
};

const timeoutOption: INodeProperties = {
	displayName: 'Wait Timeout (Minutes)',
	name: 'timeoutMinutes',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_WAIT_DEADLINE_MS / 60_000 },
	// DEFAULT_WAIT_DEADLINE_MS in minutes, written out for the form linter
	default: 15,
	description:
		'How long to wait for the task to finish (at most 120). On timeout the error names the task ID: resume with Wait for Completion.',
};

/** Unset is the default; a value that is no number or out of range is refused, not clamped. */
export function readWaitDeadlineMs(ctx: IExecuteFunctions, itemIndex: number): number {
	const options = (ctx.getNodeParameter('waitOptions', itemIndex, {}) ?? {}) as IDataObject;
	const minutes = formSetting(
		ctx.getNode(),
		'Wait Options → Wait Timeout (Minutes)',
		options.timeoutMinutes,
		{ above: 0, max: MAX_WAIT_DEADLINE_MS / 60_000, fallback: DEFAULT_WAIT_DEADLINE_MS / 60_000 },
		itemIndex,
	);
	return waitDeadlineMs(minutes);
}

const downloadOption: INodeProperties = {
	displayName: 'Download Video',
	name: 'download',
	type: 'boolean',
	default: false,
	description: 'Whether to download a completed task\'s video into the binary property "data"',
};

export const waitOptionsField = (withMode: boolean): INodeProperties => ({
	displayName: 'Wait Options',
	name: 'waitOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		downloadOption,
		...(withMode
			? [
					{
						displayName: 'Wait Mode',
						name: 'mode',
						type: 'options',
						options: [
							{
								name: 'Auto',
								value: 'auto',
								description: `Callback for up to ${AUTO_CALLBACK_MAX_TASKS} items when n8n's resume URL is https (N8N_WEBHOOK_URL; WEBHOOK_URL on older n8n), otherwise polling: a big batch's callbacks arriving together would hold n8n busy`,
							},
							{
								name: 'Callback',
								value: 'callback',
								description:
									'Put the execution to wait and resume when the gateway calls back, whatever the batch size (needs n8n reachable over https; falls back to polling otherwise)',
							},
							{
								name: 'Polling',
								value: 'polling',
								description: 'Ask the gateway for the status with back-off (5 s, x1.5, up to 30 s)',
							},
						],
						default: 'auto',
						description: 'How the node learns that the task has finished',
					} as INodeProperties,
				]
			: []),
		timeoutOption,
	],
});

export const getOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'getOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [downloadOption],
};

export const taskIdField: INodeProperties = {
	displayName: 'Task ID',
	name: 'taskId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. {{ $json.ID }}',
	description: 'The ID that Create returned (also named in timeout errors)',
};
