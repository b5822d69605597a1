import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { gatewayRequest } from '../../../shared/transport';
import { readRequestSettings } from '../descriptions';
import type { OperationModule } from '../types';

/** The endpoint this operation calls. */
export const PATH = '/v1/user/balance';

/**
 * GET /v1/user/balance. The interface says the request carries an empty JSON
 * body with `Content-Type: none`; n8n's HTTP helper never sends a body on a
 * GET, so only the header is sent (the simulator accepts both).
 */
async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { timeoutMs } = readRequestSettings(this, itemIndex);
	const { body } = await gatewayRequest<IDataObject>(this, {
		method: 'GET',
		path: PATH,
		headers: { 'Content-Type': 'none' },
		kind: 'read',
		timeoutMs: Math.min(timeoutMs, 60_000),
		itemIndex,
	});
	return [{ json: body }];
}

export const getBalance: OperationModule = { description: [], execute };
