import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import type { Catalog, CatalogModel } from '../../shared/catalog';
import type { GatewayResource } from '../../shared/credentials';

/**
 * One operation of the form, in its own file `<resource>/<operation>.operation.ts`.
 * `execute` handles one item; the router owns the loop, continue-on-fail,
 * `pairedItem` and `itemIndex` on errors.
 */
export interface OperationModule {
	/** The operation's fields, already scoped to it with displayOptions. */
	description: INodeProperties[];
	/**
	 * Whether each request creates work the gateway charges for (a generation,
	 * a task, a cache). n8n's Retry On Fail then repeats paid work: the router
	 * says so in a hint and in the run's error.
	 */
	createsPaidWork?: boolean;
	execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]>;
	/**
	 * Optional check of one item, run by the router for every item before any
	 * `execute` or `executeAll`: an operation that starts paid work refuses a
	 * bad item before the first item's work is created. Throws the refusal.
	 */
	check?(this: IExecuteFunctions, itemIndex: number): Promise<void>;
	/**
	 * Optional whole-node step run before the item loop; its output, if any,
	 * replaces the loop (video Create and Wait's callback mode, which creates
	 * every item's task and then puts the execution to wait once). `refused`
	 * holds the items `check` refused under continue-on-fail.
	 */
	executeAll?(
		ctx: IExecuteFunctions,
		refused: ReadonlyMap<number, Error>,
	): Promise<INodeExecutionData[][] | undefined>;
	/**
	 * Webhooks the operation needs n8n to route to the node (Create and Wait's
	 * resume URL), and the handler the router calls for them.
	 */
	webhooks?: IWebhookDescription[];
	webhook?(ctx: IWebhookFunctions): Promise<IWebhookResponseData>;
}

export interface OperationEntry {
	value: string;
	name: string;
	action: string;
	description: string;
	module: OperationModule;
}

export interface ResourceModule {
	value: GatewayResource;
	name: string;
	description: string;
	operations: OperationEntry[];
	/** The resource's model catalog, for resources whose form has a model list. */
	catalog?: Catalog<CatalogModel>;
}
