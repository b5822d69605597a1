import type { IDataObject, IExecuteFunctions, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { mapWithConcurrency } from '../../../../../shared/concurrency';
import { errorItem, itemError } from '../../../itemErrors';
import { VIDEO_MAYBE_CREATED, finishedItem } from '../../task';
import type { CallbackState } from './taskList';
import type { WaitInfo } from '../../waitInfo';

/**
 * One item per slot, in order, from every task's final record (and its
 * video): used when the wait finds every task final as it begins, and by the
 * callback that resumes it. Downloads run at most `maxConcurrency` at once.
 */
export async function finishAll(
	ctx: IExecuteFunctions | IWebhookFunctions,
	state: CallbackState,
	records: Array<IDataObject | undefined>,
	waitInfo: WaitInfo,
	maxConcurrency: number,
): Promise<INodeExecutionData[]> {
	return await mapWithConcurrency(state.slots.length, maxConcurrency, async (item) => {
		const slot = state.slots[item];
		if (typeof slot !== 'string') {
			// The create's own advice is too long to keep in custom data; its gist is kept.
			const advice = slot.charged ? { errorDescription: VIDEO_MAYBE_CREATED } : {};
			return { json: { error: slot.error, ...advice, waitInfo }, pairedItem: { item } };
		}
		return {
			...(await resumedItem(ctx, item, records[item]!, state.download, waitInfo)),
			pairedItem: { item },
		};
	});
}

/**
 * A final record as an item. A resumed node can only hand on items, so a
 * task that failed, or whose video could not be downloaded, keeps the
 * gateway's record (task id, status, the video's address) beside the error.
 */
async function resumedItem(
	ctx: IExecuteFunctions | IWebhookFunctions,
	item: number,
	record: IDataObject,
	download: boolean,
	waitInfo: WaitInfo,
): Promise<INodeExecutionData> {
	try {
		return await finishedItem(ctx, item, record, { download, info: waitInfo });
	} catch (error) {
		const { json } = errorItem(itemError(ctx.getNode(), error, item), item, record);
		return { json: { ...json, waitInfo } };
	}
}
