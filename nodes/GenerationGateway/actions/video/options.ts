import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forModels } from './fields';
import { DEFAULT_WAIT_DEADLINE_MS, MAX_WAIT_DEADLINE_MS, waitDeadlineMs } from '../../../shared/polling';
import { formSetting } from '../../../shared/validation';
import { optionsCollection } from '../descriptions';
import { field, labelledOptions } from '../formFields';

/** Optional members of a create (seed, callback, vidA extensions) and the waiting options. */

/** Auto waits by callback for at most this many tasks: each callback makes n8n load the whole waiting execution. */
export const AUTO_CALLBACK_MAX_TASKS = 5;

const vidA = forModels((m) => m.extensions);

export const createOptionsField: INodeProperties = optionsCollection(
	[
		field('Callback URL', 'callbackUrl', 'string', {
			default: '',
			placeholder: 'https://n8n.example.com/webhook/…',
			description:
				'An https address the gateway calls when the task status changes, e.g. the URL of a Generation Gateway Trigger node. (Create and Wait sets its own in callback mode.).',
		}),
		field('Fixed Camera', 'cameraFixed', 'boolean', {
			default: false,
			description: 'Whether the camera stays still (vidA extension)',
			displayOptions: vidA,
		}),
		field('Output Container', 'outputFormat', 'options', {
			options: labelledOptions({ MP4: 'mp4', MOV: 'mov' }),
			default: 'mp4',
			displayOptions: vidA,
		}),
		field('Reference Task Type', 'referenceTaskType', 'options', {
			options: labelledOptions({ Auto: 'auto', Reference: 'reference', Edit: 'edit', Extend: 'extend' }),
			default: 'auto',
			description: 'The gateway sets edit and extend itself from the references; set it only to force one',
			displayOptions: vidA,
		}),
		field('Return Last Frame', 'returnLastFrame', 'boolean', {
			default: false,
			description: 'Whether the result also carries the last frame as an image (vidA extension)',
			displayOptions: vidA,
		}),
		field('Seed', 'seed', 'number', {
			typeOptions: { minValue: -1, maxValue: 2147483647 },
			default: -1,
			description: 'Random seed, -1 to 2147483647 (-1 = random). Same seed and inputs give similar videos.',
			displayOptions: forModels((m) => m.seed),
		}),
		field('Service Level', 'serviceTier', 'options', {
			options: labelledOptions({ Default: 'default', Flex: 'flex' }),
			default: 'default',
			displayOptions: vidA,
		}),
		field('Upstream Integer (0-9)', 'level', 'number', {
			typeOptions: { minValue: 0, maxValue: 9 },
			default: 0,
			description:
				'An integer 0-9 of the vidA extension object. The interface does not say what it means; it is sent as metadata.priority (an assumed name).',
			displayOptions: vidA,
		}),
		field('Watermark', 'watermark', 'boolean', {
			default: false,
			description: 'Whether the video carries the upstream watermark (vidA extension)',
			displayOptions: vidA,
		}),
	],
	'videoOptions',
);

const timeoutOption: INodeProperties = field('Wait Timeout (Minutes)', 'timeoutMinutes', 'number', {
	typeOptions: { minValue: 1, maxValue: MAX_WAIT_DEADLINE_MS / 60_000 },
	default: DEFAULT_WAIT_DEADLINE_MS / 60_000,
	description:
		'How long to wait for the task to finish (at most 120). On timeout the error names the task ID: resume with Wait for Completion.',
});

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

const downloadOption: INodeProperties = field('Download Video', 'download', 'boolean', {
	default: false,
	description: 'Whether to download a completed task\'s video into the binary property "data"',
});

export const waitOptionsField = (withMode: boolean): INodeProperties =>
	optionsCollection(
		[
			downloadOption,
			...(withMode
				? [
						field('Wait Mode', 'mode', 'options', {
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
						}),
					]
				: []),
			timeoutOption,
		],
		'waitOptions',
		'Wait Options',
	);

export const getOptionsField: INodeProperties = optionsCollection([downloadOption], 'getOptions');

export const taskIdField: INodeProperties = field('Task ID', 'taskId', 'string', {
	default: '',
	required: true,
	placeholder: 'e.g. {{ $json.ID }}',
	description: 'The ID that Create returned (also named in timeout errors)',
});
