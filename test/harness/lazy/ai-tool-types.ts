import { lazy } from './lazy';

/** n8n-core's StructuredToolkit, whose class extends one of @langchain/core's as it loads. */
export = lazy('ai-tool-types', true);
