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
	simplify: (answer: IDataObject) => IDataObject;
	/** The answer's text, for n8n's chat when the answer came whole. */
	chatText: (answer: IDataObject) => string;
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
	const answer = await chat.around(async (): Promise<IDataObject> => {
		let result: IDataObject;
		if (body.stream === true) {
			const response = await gatewayRequest<AsyncIterable<Uint8Array>>(ctx, {
				...request,
				responseType: 'stream',
			});
			chat.begin();
			result = (await assembleStream(response.body, reply.assembler(chat.text), {
				node: ctx.getNode(),
				itemIndex,
				timeoutMs,
				what: reply.streamFailed,
			})) as IDataObject;
		} else {
			result = (await gatewayRequest<IDataObject>(ctx, request)).body;
		}
		reply.check?.(result);
		if (body.stream !== true) chat.text(reply.chatText(result));
		return result;
	});
	const simplify = ctx.getNodeParameter('simplifyOutput', itemIndex, true) as boolean;
	return [{ json: simplify ? reply.simplify(answer) : answer }];
}
