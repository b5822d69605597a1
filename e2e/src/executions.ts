/** What n8n's REST API returns for an execution: its record, run data, items and their binary references. */
export interface ExecutionRecord {
	id: string;
	status: string;
	finished: boolean;
	mode: string;
	workflowId: string;
	startedAt?: string;
	stoppedAt?: string;
	/** Set while the execution waits (its Wait Timeout). */
	waitTill?: string | null;
	data: RunData;
}

export interface BinaryRef {
	mimeType: string;
	fileName?: string;
	fileExtension?: string;
	fileSize?: string;
	id?: string;
	data?: string;
}

export interface Item {
	json: Record<string, unknown>;
	binary?: Record<string, BinaryRef>;
	pairedItem?: { item: number } | Array<{ item: number }> | number;
}

export interface TaskData {
	executionStatus?: string;
	error?: { message: string; description?: string };
	data?: { main?: Array<Item[] | null> };
	/** The node's execution hints (shown above its output in the editor). */
	hints?: Array<{ message: string; type?: string; location?: string }>;
}

export interface RunData {
	resultData: {
		runData: Record<string, TaskData[]>;
		error?: { message: string };
		lastNodeExecuted?: string;
		/** The execution's custom data. */
		metadata?: Record<string, string>;
	};
	waitTill?: string;
}
