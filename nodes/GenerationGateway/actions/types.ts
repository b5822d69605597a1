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
export interface OperationModule<Plan = unknown> {
	/** The operation's fields, already scoped to it with displayOptions. */
	description: INodeProperties[];
	/**
	 * Whether each request creates work the gateway charges for (a generation,
	 * a task, a cache). n8n's Retry On Fail then repeats paid work: the router
	 * says so in a hint and in the run's error.
	 */
	createsPaidWork?: boolean;
	/**
	 * Optional decision made once per run, before any item, from the run's
	 * information (Create and Wait: the way of waiting); `execute` and
	 * `settle` are given it.
	 */
	plan?(ctx: IExecuteFunctions, run: RunInfo): Plan | Promise<Plan>;
	execute(this: IExecuteFunctions, itemIndex: number, plan: Plan): Promise<INodeExecutionData[]>;
	/**
	 * Optional check of one item, run by the router for every item before any
	 * `execute`: an operation that starts paid work refuses a bad item before
	 * the first item's work is created. Throws the refusal.
	 */
	check?(this: IExecuteFunctions, itemIndex: number): Promise<void>;
	/**
	 * Optional second step over the whole batch, run by the router once every
	 * item's `execute` has ended: video Create and Wait and Wait for
	 * Completion start (or name) each item's task in `execute`, then wait for
	 * all of them here at once, by polling or by callback. It is given every
	 * item's result (an item refused or failed under continue-on-fail keeps
	 * its error) and returns every item's final result in the same order; the
	 * router then applies continue-on-fail to each, as for `execute`.
	 */
	settle?(ctx: IExecuteFunctions, results: ItemResult[], plan: Plan): Promise<ItemResult[]>;
	/**
	 * Webhooks the operation needs n8n to route to the node (Create and Wait's
	 * resume URL), and the handler the router calls for them.
	 */
	webhooks?: IWebhookDescription[];
	webhook?(ctx: IWebhookFunctions): Promise<IWebhookResponseData>;
}

/** What the router knows of a run before its first item. */
export interface RunInfo {
	/** The run is a tool call of an AI agent (or an MCP client). */
	asTool: boolean;
}

/** One item's result: its output items, or the error that stands for it. */
export type ItemResult = { output: INodeExecutionData[] } | { error: Error };

interface OperationEntry {
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
