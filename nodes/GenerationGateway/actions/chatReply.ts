import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { StreamAssembler } from '../../shared/sse';
import { assembleStream, chatAnswer } from '../../shared/sse';
import type { GatewayRequest } from '../../shared/transport';
import { gatewayRequest } from '../../shared/transport';
import { readRequestSettings } from './descriptions';
import { runsAsTool } from './tool';

/** How one text-generating operation (message, response) sends its body and reads the answer. */
interface ChatReply {
	path: string;
	/** Whether n8n's chat may have the answer streamed when Stream is left out. */
	mayStream: (body: IDataObject) => boolean;
	validate: (body: IDataObject) => void;
	/** What goes on the wire (the body with its files embedded); the body itself by default. */
	send?: (body: IDataObject) => GatewayRequest['body'];
	assembler: (onText: (text: string) => void) => StreamAssembler;
	streamFailed: string;
	/** Throws when the answer is not a result (a failed or incomplete response). */
	check?: (answer: IDataObject) => void;
	simplify: (answer: IDataObject) => Record<string, unknown>;
	/** The simplified answer's member that holds its text, for n8n's chat when the answer came whole. */
	textMember: string;
}

/** Sends the body whole or as a stream (Stream option), and shows the answer's text in n8n's chat. */
export async function replyTo(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	reply: ChatReply,
): Promise<INodeExecutionData[]> {
	// Streaming into n8n's chat: with the Stream option left out the node streams by itself
	// (where `mayStream`); with Stream added and off the chat gets the whole text at once.
	const chat = chatAnswer(ctx, itemIndex, runsAsTool(ctx));
	if (chat.on && body.stream === undefined && reply.mayStream(body)) body.stream = true;
	reply.validate(body);
	const streams = body.stream === true;
	const sent = reply.send ? reply.send(body) : body;
	const { timeoutMs } = readRequestSettings(ctx, itemIndex);
	const request = {
		method: 'POST',
		path: reply.path,
		body: sent,
		kind: 'create',
		timeoutMs,
		itemIndex,
	} as const;
	const readStream = async (): Promise<IDataObject> => {
		const response = await gatewayRequest<AsyncIterable<Uint8Array>>(ctx, {
			...request,
			responseType: 'stream',
		});
		chat.begin();
		const options = { node: ctx.getNode(), itemIndex, timeoutMs, what: reply.streamFailed };
		return (await assembleStream(response.body, reply.assembler(chat.text), options)) as IDataObject;
	};
	const answer = await chat.around(async () => {
		const result = streams ? await readStream() : (await gatewayRequest<IDataObject>(ctx, request)).body;
		reply.check?.(result);
		if (!streams) chat.text(String(reply.simplify(result)[reply.textMember]));
		return result;
	});
	const simplify = ctx.getNodeParameter('simplifyOutput', itemIndex, true) as boolean;
	return [{ json: simplify ? (reply.simplify(answer) as IDataObject) : answer }];
}
